// GgpTrace: one playthrough of a game on GGP-Base's ProverStateMachine,
// written as a gdlc trace (docs/trace-format.md), for `gdlc replay` to check
// gdlc's engines against. Not built by CMake (CI has no Java): the manual
// check of docs/pie.md, with GGP-Base built by ../shared/peers/build_peers.sh.
//
//   javac -cp "$(cat /tmp/peers/ggpbase.classpath)" -d /tmp/ggptrace tests/tools/GgpTrace.java
//   java -cp "/tmp/ggptrace:$(cat /tmp/peers/ggpbase.classpath)" GgpTrace GAME.kif [SEED] [JOINT...]
//
// Each JOINT is one joint move, the moves in role order separated by '|',
// e.g. "(mark 2 2)|noop", a '?' for a random move ("?|swap"); after the last (or with none) the roles play
// uniformly random moves (java.util.Random(SEED), default 1) to the end.
// A move that is not legal is an error (exit 1).
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.ggp.base.util.game.Game;
import org.ggp.base.util.gdl.factory.GdlFactory;
import org.ggp.base.util.gdl.grammar.Gdl;
import org.ggp.base.util.gdl.grammar.GdlSentence;
import org.ggp.base.util.statemachine.MachineState;
import org.ggp.base.util.statemachine.Move;
import org.ggp.base.util.statemachine.Role;
import org.ggp.base.util.statemachine.StateMachine;
import org.ggp.base.util.statemachine.implementation.prover.ProverStateMachine;

public class GgpTrace {
    // "( cell 1 1 b )" -> "(cell 1 1 b)", lower case: gdlc's canonical form
    static String canon(String s) {
        return s.replaceAll("\\(\\s+", "(").replaceAll("\\s+\\)", ")").replaceAll("\\s+", " ").trim().toLowerCase();
    }

    public static void main(String[] args) throws Exception {
        String file = args[0];
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        String kif = new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.UTF_8);
        List<Gdl> rules = Game.createEphemeralGame(Game.preprocessRulesheet(kif)).getRules();
        StateMachine sm = new ProverStateMachine();
        sm.initialize(rules);
        List<Role> roles = sm.getRoles();
        Random rng = new Random(seed);
        StringBuilder out = new StringBuilder();
        out.append("; game: ").append(file).append("\n; engine: GGP-Base ProverStateMachine, seed ").append(seed)
           .append("\n(roles");
        for (Role r : roles) out.append(' ').append(canon(r.getName().toString()));
        out.append(")\n");
        MachineState s = sm.getInitialState();
        for (int step = 0;; step++) {
            out.append("(step ").append(step).append(")\n");
            List<String> facts = new ArrayList<String>();
            for (GdlSentence f : s.getContents()) facts.add(canon(f.getBody().get(0).toString()));
            Collections.sort(facts);
            out.append("(state");
            for (String f : facts) out.append(' ').append(f);
            out.append(")\n");
            if (sm.isTerminal(s)) {
                out.append("(terminal)\n(goals");
                for (Role r : roles) out.append(' ').append(sm.getGoal(s, r));
                out.append(")\n");
                break;
            }
            List<Move> joint = new ArrayList<Move>();
            String[] given = 2 + step < args.length ? args[2 + step].split("\\|") : null;
            for (int k = 0; k < roles.size(); k++) {
                List<Move> legal = sm.getLegalMoves(s, roles.get(k));
                List<String> names = new ArrayList<String>();
                for (Move m : legal) names.add(canon(m.getContents().toString()));
                Collections.sort(names);
                out.append("(legal ").append(canon(roles.get(k).getName().toString()));
                for (String n : names) out.append(' ').append(n);
                out.append(")\n");
                Move m;
                if (given != null && !given[k].equals("?")) {
                    m = new Move(GdlFactory.createTerm(given[k]));
                    if (!names.contains(canon(m.getContents().toString()))) {
                        System.out.print(out);
                        System.err.println("GgpTrace: step " + step + ": " + given[k] + " is not legal for " + roles.get(k));
                        System.exit(1);
                    }
                } else {
                    m = legal.get(rng.nextInt(legal.size()));
                }
                joint.add(m);
            }
            out.append("(does");
            for (Move m : joint) out.append(' ').append(canon(m.getContents().toString()));
            out.append(")\n");
            s = sm.getNextState(s, joint);
        }
        System.out.print(out);
    }
}
