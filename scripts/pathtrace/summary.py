# The targets of one NFT order's path (story files per leg, plumbing left out) and the A <-> B file pairs,
# as one line each, so `npm run trace:path` reads like the bench: figure, target, met or not.
import sys, io, contextlib
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from analyze2 import run
from pingpong import pp

TARGETS = {'1 create (HTTP)': 30, '2 job/stages': 15, '4 webhook': 7, '5 bot notice': 10}
nft = sys.argv[1]
with contextlib.redirect_stdout(io.StringIO()):
    _, per = run(nft, True)
pairs = pp(nft, True)
ok = True
print('path of one NFT order (story files per leg, plumbing left out):')
for leg, target in TARGETS.items():
    n = len(per[leg]['files']) if leg in per else 0
    met = n <= target
    ok = ok and met
    print(f'  {leg:<18} {n:>3} files  (target <= {target}) {"ok" if met else "OVER"}')
print(f'  A <-> B file pairs {len(pairs):>3}        (target 0) {"ok" if not pairs else "OVER"}')
for a, b in pairs:
    print(f'     {a} <-> {b}')
ok = ok and not pairs
print(f'trace:path: {"all targets met" if ok else "targets not met"}')
