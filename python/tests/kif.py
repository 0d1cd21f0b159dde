"""A small reader of KIF s-expressions, for the traces (traces/FORMAT.md)."""


def tokens(text):
    """The tokens of text: '(' , ')' and atoms; ';' comments dropped."""
    out = []
    for line in text.splitlines():
        line = line.split(";", 1)[0]
        out += line.replace("(", " ( ").replace(")", " ) ").split()
    return out


def forms(text):
    """The top-level forms of text, as nested lists of lower-case atoms."""
    stack, top = [], []
    for t in tokens(text):
        if t == "(":
            stack.append([])
        elif t == ")":
            f = stack.pop()
            (stack[-1] if stack else top).append(f)
        else:
            (stack[-1] if stack else top).append(t.lower())
    return top


def write(f):
    """The canonical text of a form: single spaces."""
    return f if isinstance(f, str) else "(" + " ".join(write(x) for x in f) + ")"


def steps(text):
    """The trace's steps: dicts of state (set), legal (role -> set), does (list), terminal, goals."""
    out, roles = [], None
    for f in forms(text):
        head = f[0]
        if head == "roles":
            roles = f[1:]
        elif head == "step":
            out.append({"legal": {}, "does": None, "terminal": False, "goals": None})
        elif head == "state":
            out[-1]["state"] = {write(x) for x in f[1:]}
        elif head == "legal":
            out[-1]["legal"][f[1]] = {write(x) for x in f[2:]}
        elif head == "does":
            out[-1]["does"] = [write(x) for x in f[1:]]
        elif head == "terminal":
            out[-1]["terminal"] = True
        elif head == "goals":
            out[-1]["goals"] = [int(x) for x in f[1:]]
    return roles, out
