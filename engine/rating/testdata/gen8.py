# openskill.py 6.2.0 (github.com/vivekjoshy/openskill.py at 65a675d),
# python3 gen8.py with the repository's openskill/ on PYTHONPATH.
from openskill.models import PlackettLuce
m = PlackettLuce(tau=0)  # the model alone, as openskill.js's model tests
print("newcomers", [(p.mu, p.sigma) for [p] in m.rate([[m.rating()] for _ in range(8)])])
m = PlackettLuce()       # rate() with its default tau = 25/300
mus = [31.5, 18.25, 25.0, 40.125, 12.0, 27.75, 22.5, 35.0]
sigmas = [2.5, 6.0, 25/3, 1.25, 4.75, 3.5, 7.25, 5.0]
ranks = [3, 8, 1, 2, 7, 5, 6, 4]
out = m.rate([[m.rating(mu=a, sigma=b)] for a, b in zip(mus, sigmas)], ranks=ranks)
print("mixed", [(p.mu, p.sigma) for [p] in out])
