# The values of reference_test.go from openskill.py 6.2.0
# (github.com/vivekjoshy/openskill.py at commit 65a675d): run
#
#     PYTHONPATH=path/to/openskill.py python3 testdata/reference.py
#
# First the cases of openskill.js's tests, which openskill.py reproduces to
# the last digit; then the two 8-player cases that no published test has.
from openskill.models import PlackettLuce

model = PlackettLuce(tau=0)  # the model alone, as openskill.js's model tests
rate = PlackettLuce()        # rate() with its default tau = 25/300


def r(m, mu=None, sigma=None):
    return [m.rating(mu=mu, sigma=sigma)]


def show(name, result):
    print(name, [(p.mu, p.sigma) for [p] in result])


for n in (2, 3, 4, 5):
    show(f"{n}p FFA", model.rate([r(model) for _ in range(n)]))
show("reverses rank", rate.rate([r(rate), r(rate)], ranks=[2, 1]))
four = lambda: [r(rate, 29.182, 4.782), r(rate, 27.174, 4.922), r(rate, 16.672, 6.217), r(rate)]
show("unequal", rate.rate(four()))
show("tau 0.01", rate.rate(four(), tau=0.01))
show("tau 0.01, sigma limited",
     rate.rate([r(rate, 6.672, 0.0001), r(rate, 29.182, 4.782)], tau=0.01, limit_sigma=True))
show("misordered", rate.rate([r(rate) for _ in range(4)], ranks=[2, 1, 4, 3]))
show("rate ordering", rate.rate([r(rate, mu, 25 / 3) for mu in (15, 20, 25, 30)], ranks=[1, 3, 4, 2]))
show("ties", rate.rate([r(rate, 10, 8), r(rate, 5, 10), r(rate, 0, 12)], ranks=[1, 2, 2]))
show("four-way tie", rate.rate([r(rate) for _ in range(4)], ranks=[1, 1, 1, 1]))
show("draw", rate.rate([r(rate) for _ in range(2)], ranks=[0, 0]))

show("8p FFA", model.rate([r(model) for _ in range(8)]))
rate = PlackettLuce()  # afresh: rate(limit_sigma=True) above left the model limiting σ
mus = [31.5, 18.25, 25.0, 40.125, 12.0, 27.75, 22.5, 35.0]
sigmas = [2.5, 6.0, 25 / 3, 1.25, 4.75, 3.5, 7.25, 5.0]
show("8p mixed", rate.rate([r(rate, mu, s) for mu, s in zip(mus, sigmas)], ranks=[3, 8, 1, 2, 7, 5, 6, 4]))
