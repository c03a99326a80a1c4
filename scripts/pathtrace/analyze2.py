import json, sys, collections
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analyze import seg_of
PLUMB = {'src/http/app.ts','src/http/request-id.ts','src/kernel/ids.ts','src/kernel/clock.ts','src/kernel/log.ts','src/http/rate-limiter.ts',
 'src/domain/token-bucket.ts','src/http/json-body.ts','src/http/frozen-json.ts','src/store/prepared.ts','src/store/committed-cache.ts',
 'src/store/staged.ts','src/store/db.ts','src/store/group-commit.ts','src/app/unit-of-work.ts','src/workers/scheduler.ts','src/app/job-queue.ts','src/clock.ts','src/log.ts','src/ids.ts','src/http/openapi/routes.ts'}
def plumb(f): return f in PLUMB or f.startswith('src/ops/')
def run(path, story):
    ev = json.load(open(path))
    visited=set(); order=[]; hops=back=0; edges=set(); uh=ub=0
    per = collections.defaultdict(lambda: {'files': set(), 'hops': 0, 'back': 0, 'uh':0,'ub':0})
    for e in ev:
        f=e['file']
        if story and plumb(f): continue
        c=None; cf=None
        for fr in e['stack']:
            ff, fn = fr.rsplit(':',1)
            if story and plumb(ff): continue
            c, cf = ff, fn; break
        s=seg_of(e); P=per[s]; P['files'].add(f)
        if c and c!=f:
            hops+=1; P['hops']+=1
            isb = f in visited
            if isb: back+=1; P['back']+=1
            edge=(c,cf,f,e['name'])
            if edge not in edges:
                edges.add(edge); uh+=1; P['uh']+=1
                if isb: ub+=1; P['ub']+=1
        for x in (c,f):
            if x and x not in visited: visited.add(x); order.append(x)
    print(f"== {path} {'STORY (plumbing removed)' if story else 'ALL'}: files {len(visited)}; cross-file calls {hops} (into visited file {back}); distinct cross-file call sites {uh} (back-and-forth {ub})")
    for s in sorted(per):
        P=per[s]; print(f"   {s}: files {len(P['files'])}, calls {P['hops']} (back {P['back']}), distinct sites {P['uh']} (back {P['ub']})")
    return order, per
if __name__ == "__main__":
  for p in sys.argv[1:]:
    run(p, False); o, _ = run(p, True)
    print('   story files:', len(o)); print('    ' + '\n    '.join(o))
