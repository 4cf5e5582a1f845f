"""Which upper switch and port each uplink of a lower switch goes to (leaf to spine, spine to core), so that the
wiring stays where it is as the fabric grows.

A lower switch has ``up`` uplinks, to ``uppers`` upper switches, ``m`` = up / uppers links to each; an upper
switch has ``down`` ports facing the lower switches, and the lower switch is the ``local``-th of those it meets.
``c`` is the switch's logical ports per cage (2 on a Quantum-2 twin-port OSFP cage).

* **Upper switch.** Uplink j is lane i of cage g (j = g·c + i); its place in lane order is q = i·(up/c) + g (every
  cage's first lane, then every cage's second), and it goes to upper switch q mod uppers, as its t-th link there
  (t = q // uppers). Every upper switch gets m links of every lower switch. When the upper switches double (the
  cluster grows past what they hold, m halves), q mod 2·uppers keeps the links with even t where they are and
  moves the others to the new upper switches: half of the uplinks move, the fewest any balanced wiring moves.
  The old rule "uplink j to upper j // m" moved all but a few (issue 35: 510 of 512 from 64 to 96 HGX nodes).
  When c divides m, a cage's two lanes meet the same upper switch (t and t + m/c), so a straight twin-to-twin
  cable can join them.
* **Port on the upper switch.** With L = down // m the most lower switches the uppers hold at m links each:
  when c divides m, the t-th link (lane t // (m/c), cage round t mod (m/c)) takes cage ``round·L + local`` and
  the lane's port in it (a lower switch's two lanes share one cage of the upper switch too); when c does not
  divide m (fewer links per pair than lanes per cage, one link per pair), the port is the one the layout of 2m
  links per pair gives lower switch ``local mod L/2`` for its link ``2t + local // (L/2)``: the first half of the
  lower switches keep the ports of their even links, the second half take the ports their odd links left. So too,
  whatever c, where down // m is odd (128 ports at 5 links a pair: 12 lower switches at 10 links, 25 at 5), so
  that the layout of 2m links still holds for the links that stay; the lower switch past twice the 2m layout's
  (the 25th) takes m ports after all of those, in order.
  Ports are in round-major order, so a lower switch added keeps every other switch's ports, and the layout of m
  links per pair is that of 2m links for the links that stay.

Every port is used once: round·L + local < (m/c)·L cages ≤ down / c. Port numbers are 0-based here.
"""

from __future__ import annotations


def upper_port(local: int, t: int, m: int, down: int, c: int) -> int:
    """The 0-based port on its upper switch of the t-th link (of m) of the ``local``-th lower switch."""
    if m <= 0 or down <= 0:
        return t
    # The layout of m links a pair holds twice the lower switches of 2m only where down // m is even: else nest it.
    nests = 2 * m <= down and down // m != 2 * (down // (2 * m))
    if c > 1 and m % c == 0 and not nests:
        lane, round_ = divmod(t, m // c)
        return (round_ * (down // m) + local) * c + lane
    if nests or (m % c and 2 * m <= down):
        half = down // (2 * m)
        if local < 2 * half:
            return upper_port(local % half, 2 * t + local // half, 2 * m, down, c)
        return local * m + t  # past the ports the layout of 2m links takes (2·half·m of them): free ones, in order
    return t * (down // m) + local


def uplinks(up: int, uppers: int, down: int, cage: int, local: int) -> list[tuple[int, int]]:
    """(upper switch, 0-based port on it) of uplink j = 0 .. up - 1 of the ``local``-th lower switch."""
    if uppers <= 0 or up <= 0:
        return []
    m = -(-up // uppers)
    c = cage if cage > 1 and up % cage == 0 and up == uppers * m else 1
    lanes = up // c
    out = []
    for j in range(up):
        g, i = divmod(j, c)
        t, s = divmod(i * lanes + g, uppers)
        out.append((s, upper_port(local, t, m, down, c)))
    return out
