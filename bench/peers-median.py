#!/usr/bin/env python3
"""bench/peers-median.py RESULTS.jsonl...: the median of several runs of
../shared/peers/run_table.sh (one results.jsonl per run, engines interleaved
game by game within each run) as two Markdown tables: state changes per
second per engine with the ratios to Sancho's propnet, then what it takes to
get ready (load to ready of gdlc's engines, from reading the .kif to the
first query; Sancho: its propnet construction, build_s), peak memory and the
plan engine jit took. Engines are the columns the runs have, of gdlc-pn,
gdlc-jit, gdlc-jit:goal, gdlc-aot, gdlc-aot:goal."""
import json
import statistics
import sys

runs = []
order = []
for path in sys.argv[1:]:
    rows = {}
    for line in open(path):
        line = line.strip()
        if not line.startswith('{'):
            continue
        d = json.loads(line)
        g = d['game']
        if 'uptime' in d:
            continue
        if g not in order:
            order.append(g)
        rows.setdefault(g, {})[d['engine']] = d
    runs.append(rows)


def values(game, engine, key):
    out = []
    for rows in runs:
        d = rows.get(game, {}).get(engine)
        if d and 'result' in d and d['result'].get(key) is not None:
            out.append(float(d['result'][key]))
        elif d and key == 'peak_rss_kb' and d.get('peak_rss_kb'):
            out.append(float(d['peak_rss_kb']))
    return out


def text(game, engine, key):
    for rows in runs:
        d = rows.get(game, {}).get(engine)
        if d and 'result' in d and key in d['result']:
            return d['result'][key]
    return '-'


def med(v):
    return statistics.median(v) if v else None


def fmt(x, spec=',.0f'):
    return '-' if x is None else format(x, spec)


known = ['gdlc-pn', 'gdlc-jit', 'gdlc-jit:goal', 'gdlc-aot', 'gdlc-aot:goal']
present = {e for rows in runs for g in rows for e in rows[g]}
gdlc = [e for e in known if e in present]
short = {e: e[5:] for e in gdlc}
r = lambda a, b: fmt(a / b, '.2f') if a and b else '-'

print(f'Median of {len(runs)} runs.\n')
head = ['game'] + [short[e] for e in gdlc] + ['Sancho'] + [f'{short[e]}/Sancho' for e in gdlc]
if 'gdlc-jit:goal' in gdlc:
    head.append('jit/jit:goal')
print('| ' + ' | '.join(head) + ' |')
print('|---|' + '---:|' * (len(head) - 1))
for g in order:
    m = {e: med(values(g, e, 'state_changes_per_s')) for e in gdlc + ['sancho']}
    s = m['sancho']
    cells = [g.split('/')[-1]] + [fmt(m[e]) for e in gdlc] + [fmt(s)] + [r(m[e], s) for e in gdlc]
    if 'gdlc-jit:goal' in gdlc:
        cells.append(r(m.get('gdlc-jit'), m['gdlc-jit:goal']))
    print('| ' + ' | '.join(cells) + ' |')
print()
ready = [e for e in gdlc if e in ('gdlc-pn', 'gdlc-jit', 'gdlc-aot')]
head = ['game'] + [f'{short[e]} ready s' for e in ready] + ['Sancho build s', 'jit/Sancho build'] + \
    [f'{short[e]} peak MiB' for e in ready] + ['Sancho peak MiB', 'jit plays by']
print('| ' + ' | '.join(head) + ' |')
print('|---|' + '---:|' * (len(head) - 2) + '---|')
for g in order:
    rd = {e: med(values(g, e, 'load_to_ready_s')) for e in ready}
    pk = {e: med(values(g, e, 'peak_rss_kb')) for e in ready}
    sb = med(values(g, 'sancho', 'build_s'))
    sm = med(values(g, 'sancho', 'peak_rss_kb'))
    jr = rd.get('gdlc-jit')
    ratio = f'1/{sb / jr:,.0f}' if jr and sb else '-'
    cells = [g.split('/')[-1]] + [fmt(rd[e], '.3f') for e in ready] + [fmt(sb, '.1f'), ratio] + \
        [fmt(pk[e] and pk[e] / 1024, '.1f') for e in ready] + [fmt(sm and sm / 1024, '.0f'), text(g, 'gdlc-jit', 'plan')]
    print('| ' + ' | '.join(cells) + ' |')
