#!/usr/bin/env python3
"""Fit vision/symbols' confidence (a logistic regression) to refinement traces.

Traces come from the tuning tests (JSON lines, one per candidate):
  PLANGRAPH_DATASETS=… PLANGRAPH_TRACE=sesyd.jsonl PLANGRAPH_TRACE_PLAN=file_0,file_2 \
      go test -run TestTraceSESYDPlan -timeout 60m ./vision/symbols
  PLANGRAPH_TRACE=synth.jsonl PLANGRAPH_TRACE_SEEDS=3,4,5 go test -run TestTraceSynth -timeout 90m ./vision/symbols

Usage: scripts/fit-confidence.py TRAIN.jsonl[,…] TEST.jsonl[,…]

Candidates that reach verification with correlation ≥ 0.55 are kept; cross-symbol suppression is simulated as
suppress() does (rank: support × confidence²); the survivors, labelled right when a truth instance of their
symbol overlaps them with IoU ≥ 0.5, are fitted by Newton's method (maximum likelihood, tiny ridge). The fit is
repeated three times, since the confidence decides which candidates survive. Scores (precision, recall, F1 after
thresholding at 0.5 and suppression) are printed for the current and the fitted confidence on both sets.
Plain Python 3, no packages.
"""
import json
import math
import sys

FEATURES = ['ncc', 'cham', 'expl']


def load(paths):
    rows, truth = [], {}
    for p in paths.split(','):
        for line in open(p):
            r = json.loads(line)
            if 'truth' in r:
                truth[p + ':' + r['src']] = r['truth']
                continue
            r['src'] = p + ':' + r['src']
            if r['t']['NCC'] >= 0.55 and r['t']['Conf'] > 0:
                rows.append(r)
    return rows, truth


def feats(r):
    t = r['t']
    d = {'ncc': t['NCC'], 'cham': t['Chamfer'], 'expl': t['Explained']}
    return [1.0] + [d[n] for n in FEATURES]


def fit(X, y, l2=1e-3, iters=50):
    k = len(X[0])
    w = [0.0] * k
    for _ in range(iters):
        g = [0.0] * k
        H = [[0.0] * k for _ in range(k)]
        for x, yy in zip(X, y):
            p = sigmoid(sum(a * b for a, b in zip(w, x)))
            for i in range(k):
                g[i] += (p - yy) * x[i]
                for j in range(k):
                    H[i][j] += p * (1 - p) * x[i] * x[j]
        for i in range(k):
            g[i] += l2 * w[i]
            H[i][i] += l2
        A = [H[i][:] + [g[i]] for i in range(k)]
        for c in range(k):
            piv = max(range(c, k), key=lambda r: abs(A[r][c]))
            A[c], A[piv] = A[piv], A[c]
            for r in range(k):
                if r != c:
                    f = A[r][c] / A[c][c]
                    for cc in range(c, k + 1):
                        A[r][cc] -= f * A[c][cc]
        d = [A[i][k] / A[i][i] for i in range(k)]
        w = [a - b for a, b in zip(w, d)]
        if max(abs(x) for x in d) < 1e-8:
            break
    return w


def sigmoid(z):
    return 1 / (1 + math.exp(-max(min(z, 30), -30)))


def area(q):
    return (q['x_max'] - q['x_min']) * (q['y_max'] - q['y_min'])


def overlap(a, b):
    ix = max(0, min(a['x_max'], b['x_max']) - max(a['x_min'], b['x_min']))
    iy = max(0, min(a['y_max'], b['y_max']) - max(a['y_min'], b['y_min']))
    inter = ix * iy
    u = area(a) + area(b) - inter
    return (inter / u if u > 0 else 0), inter


def suppress(rows, conf, thr=None):
    by = {}
    for r in rows:
        if thr is None or conf(r) >= thr:
            by.setdefault(r['src'], []).append(r)
    out = []
    for rs in by.values():
        rs.sort(key=lambda r: -r['t']['Support'] * conf(r) ** 2)
        kept = []
        for r in rs:
            b = r['t']['Box']
            if all(not (iou >= 0.3 or inter >= 0.7 * min(area(b), area(k['t']['Box'])))
                   for k in kept for iou, inter in [overlap(b, k['t']['Box'])]):
                kept.append(r)
        out += kept
    return out


def score(rows, truth, conf):
    out = suppress(rows, conf, 0.5)
    tp = sum(1 for r in out if r['right'])
    fp = len(out) - tp
    fn = sum(truth.values()) - tp
    p = tp / (tp + fp) if tp + fp else 1
    rc = tp / (tp + fn) if tp + fn else 1
    return tp, fp, fn, p, rc, (2 * p * rc / (p + rc) if p + rc else 0)


def main():
    train, ttruth = load(sys.argv[1])
    test, etruth = load(sys.argv[2])
    conf = lambda r: r['t']['Conf']
    for rnd in range(3):
        surv = suppress(train, conf)
        w = fit([feats(r) for r in surv], [1.0 if r['right'] else 0.0 for r in surv])
        print('round', rnd, 'survivors', len(surv), 'weights', dict(zip(['bias'] + FEATURES, [round(v, 2) for v in w])))
        conf = lambda r, w=w: sigmoid(sum(a * b for a, b in zip(w, feats(r))))
    for name, rows, truth in (('train', train, ttruth), ('test', test, etruth)):
        for label, c in (('current', lambda r: r['t']['Conf']), ('fitted', conf)):
            tp, fp, fn, p, rc, f1 = score(rows, truth, c)
            print(f'{name:5} {label:8} TP {tp} FP {fp} FN {fn} P {p:.3f} R {rc:.3f} F1 {f1:.3f}')


if __name__ == '__main__':
    main()
