"""What people see of a tournament: the terminal tables (``console``), the live display
while it plays (``live``) and the self-contained HTML report (``html``, built from a
results directory by ``data``). It reads results and ratings (``arena.standings``), the
game registry and the runner's config; the referee and the CLI import it, never the
other way round.
"""
