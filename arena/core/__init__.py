"""The game-independent building blocks: cards and tricks, seats and teams, seeded
dealing, stepwise play, the arena's error types, the replay record's envelope and the
replay checks every game shares, and the reading of deal files. It imports nothing of the
arena (the standard library only), and every other layer, the games included, may
import it.
"""
