#!/usr/bin/env python3
"""bench/peers-median.py RESULTS.jsonl...: the median of several runs of
../shared/peers/run_table.sh (one results.jsonl per run, engines interleaved
game by game within each run) as two Markdown tables: state changes per
second per engine with the ratios to Sancho's propnet, then what it takes to
get ready (pn: grounding, building and optimising the network, from load to
ready; Sancho: its propnet construction, build_s) and peak memory."""
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


def med(v):
    return statistics.median(v) if v else None


def fmt(x, spec=',.0f'):
    return '-' if x is None else format(x, spec)


engines = ['gdlc-pn', 'gdlc-jit', 'gdlc-aot', 'sancho']
print(f'Median of {len(runs)} runs.\n')
print('| game | pn | jit | aot | Sancho | pn/Sancho | jit/Sancho | aot/Sancho | pn/jit |')
print('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
for g in order:
    m = {e: med(values(g, e, 'state_changes_per_s')) for e in engines}
    s = m['sancho']
    r = lambda a, b: fmt(a / b, '.2f') if a and b else '-'
    name = g.split('/')[-1]
    print(f'| {name} | ' + ' | '.join(fmt(m[e]) for e in engines) +
          f" | {r(m['gdlc-pn'], s)} | {r(m['gdlc-jit'], s)} | {r(m['gdlc-aot'], s)} | {r(m['gdlc-pn'], m['gdlc-jit'])} |")
print()
print('| game | pn ready s | Sancho build s | pn/Sancho build | pn peak MiB | Sancho peak MiB | jit ready s |')
print('|---|---:|---:|---:|---:|---:|---:|')
for g in order:
    pr = med(values(g, 'gdlc-pn', 'load_to_ready_s'))
    sb = med(values(g, 'sancho', 'build_s'))
    pm = med(values(g, 'gdlc-pn', 'peak_rss_kb'))
    sm = med(values(g, 'sancho', 'peak_rss_kb'))
    jr = med(values(g, 'gdlc-jit', 'load_to_ready_s'))
    ratio = f'1/{sb / pr:,.0f}' if pr and sb else '-'
    name = g.split('/')[-1]
    print(f"| {name} | {fmt(pr, '.3f')} | {fmt(sb, '.1f')} | {ratio} | {fmt(pm and pm / 1024, '.1f')} | "
          f"{fmt(sm and sm / 1024, '.0f')} | {fmt(jr, '.3f')} |")
