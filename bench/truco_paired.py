"""Truco's ``pimc`` against ``shrewd`` hand for hand: the same hands and the same other
seats' bots, one seat played first by the bot under test and then by the base bot
(common random numbers); the mean gain per hand of that seat's team (its team's points
in the hand less the other team's) with its standard error, and where it came from.

Tournament P (bench/truco_strength.py) takes hundreds of matches to separate two close
bots; here the cards' luck and the other seats' play cancel, hand by hand.

Hand ``i`` is from the match seeded ``pair<i>``, after ``i // seats % 8`` hands played by
``basic`` at every seat (the same both ways; fewer once a team is within 5 points of the
target), so that the scores, and with them the Falta Envido's worth (R8), vary as in a
match, and at six seats the hand is a team hand or the duels of R13 by turns. The tested
seat is ``i % seats``; the other seats are ``--others`` in turn from the seat after it
(at six seats by default the tournament's field less one pimc: pimc, shrewd, shrewd,
basic, random). Every bot is seeded by the hand, and made afresh for each way.

The breakdown (each a gain a hand, so the parts add up to the whole):

* ``team``/``duels``: the hands of each kind (R13), each over its own count;
* ``envido``, ``truco``: the Envido's points and the Truco's (R8, R7), the Truco's split by
  how each play ended: ``tricks`` (played out), ``no-quiero`` (refused) and ``mazo`` (R10);
* ``own duel``/``other duels``: in the duel hands, the tested seat's own duel and the two
  others (its teammates' play, which it moves only through the cards it shows);
* ``capped``: the gain with each Envido's points counted up to ``CAP`` (5): a Falta
  Envido stakes up to the whole match on one declaration, and a few of them make most of
  the spread of the whole; capped, the other differences show sooner;
* ``first``: the gain split by the tested seat's first decision that differs between the
  two ways (every earlier action is the same both ways, so the whole difference of the
  hand follows from it): an envido call or answer, a Truco call or answer, al mazo, a
  card (with the base bot's kind of action when it differs); ``same``: none differed.

Measured 2026-11-26, six seats unless said, ``pimc:samples=150`` (what 50 ms buys at six
seats), at the lowest priority beside others' jobs (figures do not depend on load); a
gain is pimc's points a hand less shrewd's in the same seat, ``capped`` in brackets:

* team hands (``--kind team --start 600``, 300 hands, the other pimc on the old model):
  the old playout model (``model=own``) -1.10 ± 0.42 (-0.73 ± 0.21): worse than shrewd,
  by its Envido (a Real Envido bluffed in a third to a half of the hands); the new
  (``model=team``) +0.28 ± 0.44 (+0.18 ± 0.20); paired, new less old +1.38 ± 0.33
  (+0.91 ± 0.15).
* duel hands (``--kind duels --start 600``, 138 hands): old +0.23 ± 0.43, new +0.51 ±
  0.31; new less old +0.28 ± 0.40.
* the whole table (``--start 1200``, 211 hands; both pimc seats on the model tested):
  old +0.39 ± 0.37 (+0.17 ± 0.19), new +1.06 ± 0.39 (+0.56 ± 0.19); new less old +0.67
  ± 0.38 (+0.39 ± 0.19).
* four seats (``--seats 4 --bot pimc:samples=200 --others shrewd,basic,random``, 400
  hands): old +1.05 ± 0.22, new +0.91 ± 0.25; new less old -0.14 ± 0.15 (+0.07 ± 0.09).
  Two seats (``--seats 2 --bot pimc:samples=300 --others shrewd``, 134 hands): old +0.19
  ± 0.32, new +0.63 ± 0.18; new less old +0.43 ± 0.26 (+0.01 ± 0.09).
* tried and not kept (team hands unless said; each against the same hands): 300 worlds
  instead of 150 (old model, 54 hands) -0.85 ± 0.54; the world weights tempered (their
  square root, 211 hands) -0.21 ± 0.23, or none (75 hands) +0.11 ± 0.53; the playouts'
  Truco answered on a team trick chance as shrewd answers (112 hands) +0.05 ± 0.22, and
  at four seats -0.94 ± 0.38 (77); the world weights reading the Envido on the team
  model (108 hands, two runs) +0.35 ± 0.26 and -1.38 ± 1.17; valuing a playout by the
  chance to win the match rather than its points: the same decisions in 53 hands; with
  the new model, shrewd's Truco betting (``bets=shrewd``) +0.03 ± 0.09 (243 hands) and
  +0.04 ± 0.12 (207 others, ``--start 1500``), in the duels -0.22 ± 0.21 (138); with
  the new model, 300 worlds instead of 150: -0.18 ± 0.19 (200 hands from 1500) and -0.29
  ± 0.26 (190 from 600). More worlds (a faster simulator) would not buy strength here.
  The playouts' seats at a six-seat team table calling the Truco only as shrewd does
  there (equity 0.9 or more): -0.16 ± 0.16 (300 from 600), +0.17 ± 0.11 (300 from 1500).
* with the new model pimc is level with shrewd in the team hands (+0.28 ± 0.44 on the
  300 from 600, +0.14 ± 0.39 on 300 from 1500) and ahead in the duels: its edge at six
  seats is the Envido and the duels; the team hands' Truco is where it is not better.

Where the team hands lost, 2026-11-26 (main 997d2a7, both pimc on ``model=team``; a
hand's ``first`` difference and its capped Envido, ``--out`` keeps them by hand):

* the fixed order (``--kind team --start 600``, 300 hands): -0.06 ± 0.47 (capped -0.35
  ± 0.18). In 86 hands pimc calls an Envido where shrewd plays a card, capped Envido
  -1.5 a call (-0.42 a team hand): the other pimc, seated right after the tested seat,
  is the first seat to answer every call (R6); it raises to a Falta Envido, which the
  caller's shrewd partner refuses: -3 instead of -1. Card play differs first in 24
  hands, -0.01 a team hand; the Truco calls in 26, -0.05.
* the tournament rotates partners (arena/play/partners.py), so ``--shuffle`` seats the
  others in an order drawn for each hand: team hands (``--kind team --shuffle``, 569
  hands from 600 and from 1500) +0.36 ± 0.27 points a hand (capped +0.45 ± 0.13): ahead
  of shrewd, by its Envido raises (77 hands, +0.47 a team hand capped). What is left:
  an Envido opened where shrewd calls the Truco (18 hands, -0.10 a hand, a Falta's
  luck: capped -0.01), the card play (62 hands, -0.03 a hand). Duels (150 from 600,
  shuffled): +0.30 ± 0.37 (capped +0.23 ± 0.21).
* tried, not kept: playouts answering an Envido with a Falta Envido when the table's
  answer (``team_policy``) makes it pay (commit 91d0782, ``model=raise``), new less
  old on the same hands: fixed order, team hands, +0.49 ± 0.33 (capped +0.69 ± 0.13;
  300 from 600) and +0.10 ± 0.28 (+0.54 ± 0.16; 226 from 1500); shuffled, team hands
  +0.42 ± 0.23 (+0.32 ± 0.10; 569), the duels -0.60 ± 0.49 (-0.22 ± 0.23; 150); with
  the other pimc not the first answerer (``--others shrewd,pimc:samples=150,shrewd,
  basic,random``, 200 from 600) -0.29 ± 0.36 (-0.04 ± 0.14); four seats -0.29 ± 0.25
  (-0.39 ± 0.13; 300), two -0.72 ± 0.22 (-0.65 ± 0.14; 200; the fields and worlds of
  the four and two seats above): it expects a Falta that
  only a searching seat makes. An Envido opened only when it beats opening none by 0.2
  points and 2 paired standard errors, new less old: team hands, fixed order +0.02 ±
  0.49 (84), the other pimc a partner (the order above) +0.22 ± 0.20 (90); four seats
  -0.06 ± 0.07 (266), two -0.02 ± 0.02 (200; the fields as above): no gain shown.

Where the six-seat edge is, 2026-11-26 (branch truco7 from main 8d60b8a, the default
pimc, ``model=team``, on both pimc seats; shuffled as a tournament seats them; at nice 19
beside others' jobs, load 7 to 13):

* team hands (``--kind team --shuffle``, 300 each from 600, 1500 and 2400; 900 hands):
  +0.20 ± 0.22 points a hand (capped +0.41 ± 0.10). Envido +0.22 (capped +0.43), Truco
  -0.02 (played out -0.13, refused +0.10). By the first decision that differs: an
  Envido call or raise 407 hands, +0.117 a hand (of the 900); a card 121, -0.018; a
  Truco call 82, +0.008; al mazo 52, +0.008; a Truco answer 18, +0.017; an Envido answer
  18, +0.069; none 202.
* duel hands (``--kind duels --shuffle --start 600``, 300): +0.29 ± 0.27 (capped +0.30
  ± 0.16). Envido +0.37, Truco -0.08 (played out -0.17, refused +0.15, al mazo -0.06);
  own duel +0.14, the other two +0.15. First differing: an Envido call 189 hands,
  +0.243 a hand; a Truco call 27, -0.037; a card 18, -0.020; an Envido answer 8,
  +0.013; al mazo 7, 0; a Truco answer 3, +0.090; none 48.
* so the whole edge is the Envido (the Falta raises above all); the Truco betting and
  the card play are level with shrewd's, within a few hundredths of a point a hand.
* tried and not kept (both pimc seats on the change, ``--compare`` against the runs
  above, same hands): ``model=table`` (commit 4ce37fc; the Falta raise of ``model=raise`` at three a
  side only) +0.24 ± 0.24 (900 team hands; capped +0.02 ± 0.11): it stops opening the
  Envido (3% of the hands where shrewd plays a card, against 22%); the same with a
  quarter of the team table's answers raising (not committed), -0.46 ± 0.36 (212); the
  worlds' weights reading the other seats' Envido on their team's chance, as
  ``team_policy`` bets it (not committed), -0.33 ± 0.38 (98, stopped); no weights in the
  duels (``read=0``) -1.18 ± 0.96 (78, stopped). Al mazo left out of the search where it
  is dominated (the last seat of its team, no Envido left to the other side; tried, not
  committed; one seat on it, the default pimc as ``--base``): -0.03 ± 0.04 (154 duel
  hands, 7 differ: +2, +1, -3, -3, 0, +1, -3); none of 300 two-seat hands differs.
  Folding is never worse than playing on and refusing, but played on, the search raised
  the Truco (Retruco, Vale Cuatro) on weak cards and lost it: its playouts' answer
  (``policy``: accept above an equity of 0.3 at every level) refuses a raise far more
  often than a table counting pot odds.
* ``model=odds`` (the Truco answered on its pot odds in the playouts, as shrewd does;
  commit a42d6af, removed since): two seats (``--seats 2 --bot pimc:samples=300:model=odds --base
  pimc:samples=300 --others shrewd``, 300 hands) +0.10 ± 0.06, its Truco +0.08; six
  seats, both pimc seats on it: duels (284 from 600) -0.15 ± 0.17 (capped -0.00 ±
  0.09; Truco +0.09 ± 0.07, Envido -0.23 ± 0.16), team hands (227 from 600) -0.07 ±
  0.20 (capped +0.11 ± 0.12; Truco +0.11 ± 0.12, Envido -0.18 ± 0.14). The Truco
  leak closes, but the whole gains nothing shown; removed. Pot odds for the
  raises only (a Retruco or Vale Cuatro to answer; not committed): duels -0.04 ± 0.13
  (229; Truco +0.07 ± 0.05), team hands -0.03 ± 0.21 (195; Truco +0.09 ± 0.13).
* the playouts' card play solved in each world with every card seen, the betting left
  to the model (commit d24e7bc, ``bots/truco/exact.py``, removed since;
  ``pimc:samples=150:exact=1`` as ``--bot`` and in ``--others``, branch truco8, nice
  19, load 3 to 11; ``--compare`` against the default's runs above, the same hands):
  duels (``--kind duels --shuffle --start 600``, 300) -0.08 ± 0.18 (capped -0.03 ±
  0.12; Truco -0.09 ± 0.10, Envido +0.00 ± 0.15); team hands (``--kind team --shuffle
  --start 600``, 300, run in two parts) -0.02 ± 0.16 (capped +0.06 ± 0.12; Truco +0.06
  ± 0.11, Envido -0.07 ± 0.10). No gain shown.

``--history``: the hands before the tested one are played by the seating itself (shrewd in
the tested seat: these hands serve only as the history of the other seats' play; until
commit aa0e941 shrewd played every pimc seat too, which hid from the learner how another
pimc plays), the same both ways, and the bot under test and the base bot are both served
the tested seat's views of them (``observe``), as each would have seen them playing (before
commit 8958628 only the bot under test was); then both ways play the hand from the same
position. This measures what a bot learns within
the match (pimc's ``learn``), which the fresh bots of the default cannot show.

The opponent model learned within the match (``pimc:learn=1``, branch truco9, commit
077efde; nice 19 beside one other engineer's jobs, load 2 to 3), one seat, against the
default before it (``--bot pimc:samples=150:learn=1 --base pimc:samples=150 --shuffle
--history``, the other seats as by default):

* six seats, 300 hands from 600 and 600 from 1500: +0.20 ± 0.11 points a hand (capped
  +0.22 ± 0.06; Envido +0.11 ± 0.09, Truco +0.09 ± 0.04). With ``random`` on the other
  team +0.35 ± 0.14 (582 hands; its duels +0.80 ± 0.21, the team hands -0.14 ± 0.19);
  with ``random`` a partner -0.09 ± 0.16 (318). No history (the match's first hand):
  -0.15 ± 0.33 (108); one to three hands before +0.27 ± 0.19, four to seven +0.23 ± 0.14.
* four seats (``--seats 4 --bot pimc:samples=200:learn=1 --base pimc:samples=200 --others
  shrewd,basic,random``, 400 hands): +0.20 ± 0.15 (capped +0.22 ± 0.09).
* two seats (``--seats 2``, ``samples=300``, ``--others shrewd``, 300 hands): -0.03 ±
  0.12 (capped +0.03 ± 0.06): nothing to learn of shrewd.
* with the cards' evidence added (the cards a seat followed with against those it played
  later; commit after 077efde; ``--base pimc:samples=150:learn=0``, the other pimc now
  learning too, though with no history of its own): six seats, 600 hands from 1500,
  +0.26 ± 0.12 (capped +0.22 ± 0.07; Envido +0.16, Truco +0.10; team hands -0.07 ± 0.11,
  duels +0.57 ± 0.20); over the first version on the same hands +0.09 ± 0.09 (capped
  +0.03 ± 0.06). Four seats (as above) +0.21 ± 0.17 (capped +0.23 ± 0.09); two seats
  -0.00 ± 0.11 (capped +0.04 ± 0.04).
* the history with every pimc in it (commit ef6dc68 on; in the runs above shrewd played
  the other pimc's seat before the tested hand, so the learner never saw a pimc's Real
  Envidos and folds, which it reads as partly random): duels (``--kind duels --start
  600``, 200 hands, load 3 to 6) +0.22 ± 0.16 (capped +0.26 ± 0.13). Tried and not kept,
  not committed: only the evidence a pimc does not also give (no Falta or Real Envido
  opened counted without its declared number, al mazo only once a trick is over or the
  Truco accepted), so that another pimc is not read as random, at the cost of finding
  ``random`` out more slowly: +0.13 ± 0.07 on the same hands, -0.09 ± 0.15 against the
  kept reading.
* after the review of 906856e (branch truco10, commit 2d0565f: an opened Real Envido or
  Falta read on the number its caller declared, R9, no longer always as random, so that
  another pimc is not read as mostly random; the Truco judged on the cards held then and
  the tricks won), ``--bot pimc:samples=150:learn=1 --base pimc:samples=150:learn=0
  --others pimc:samples=150:learn=1,shrewd,shrewd,basic,random --shuffle --history``, six
  seats, 2400 hands from 1500 (hands 1500 to 3899, blocks of 300, run two at a time at
  nice 19 beside another engineer's jobs and two tournaments): +0.13 ± 0.05 (capped +0.11
  ± 0.03; Envido +0.11 ± 0.04, Truco +0.02 ± 0.02; team hands +0.00 ± 0.06 (1274), duels
  +0.27 ± 0.07 (1126)); the first 600, the hands of the +0.26 above, +0.20 ± 0.11 (capped
  +0.15 ± 0.07). Two standard errors above zero: ``learn=1`` stays the default. Fixes 1
  and 4 alone (before the Truco's cards held then; 298 of those hands): +0.08 ± 0.15.

Information-set MCTS for pimc's own later decisions (``tree=below``, ``bots/ismcts.py``;
branch truco11, 2026-11-26, nice 19 beside two other engineers' jobs, load 6 to 13;
every figure in this paragraph and the next was taken before the ``--history`` fix,
commit 8958628, which favoured the tested side: re-measured below),
both pimc seats on it, against the plain playouts (``--bot pimc:samples=150:tree=below
--base pimc:samples=150:tree=off --others pimc:samples=150:tree=below,shrewd,shrewd,basic,random
--shuffle --history``; ``tree=off`` was the default then):

* six seats, 1200 hands from 1500 (four blocks of 300, each positive: +0.14, +0.07,
  +0.27, +0.30): +0.193 ± 0.092 points a hand (capped +0.147 ± 0.051; Envido +0.107 ±
  0.083, Truco +0.086 ± 0.037). Team hands (624) +0.215 ± 0.128, their Truco +0.171 ±
  0.054: the Truco betting of the team hands, where pimc had been level with shrewd;
  duels (576) +0.168 ± 0.132, their Truco -0.007 ± 0.050. By the first decision that
  differs: a card 226 hands (+0.035 a hand of the 1200), an Envido raise answering one
  27 (+0.071), an Envido call 63 (+0.038), a Truco answer 17 (+0.032); none 758. Two
  standard errors: kept, the default. A fifth block run after that decision, hands 2700
  to 2999 (``--base pimc:samples=150:tree=off``): +0.240 ± 0.139 (capped +0.253 ±
  0.103); all 1500 hands +0.202 ± 0.079 (capped +0.169 ± 0.046; Envido +0.092 ± 0.070,
  Truco +0.110 ± 0.033; team hands +0.192 ± 0.109, their Truco +0.165 ± 0.048; duels
  +0.213 ± 0.113).
* two seats (``--seats 2``, ``samples=300``, ``--others shrewd``), 900 hands from 1500:
  -0.057 ± 0.057 (capped -0.049 ± 0.033; Envido -0.056 ± 0.050, Truco -0.001 ± 0.026):
  no loss shown.
* four seats (``--seats 4``, ``samples=200``, ``--others shrewd,basic,random``), 600
  hands from 1500: +0.283 ± 0.169 (capped +0.238 ± 0.088; Envido +0.207 ± 0.158, Truco
  +0.077 ± 0.056).
* tried and not kept (commit fec17bc): ISMCTS at the root too, the worlds shared out
  among the candidates by UCB1 (each world searched once a candidate, ``samples`` worlds
  as many playouts as the plain search's): ``tree=all`` (every decision, the cards
  below the root in the tree too), six seats -0.600 ± 0.302 (105 hands from 1500,
  stopped; Truco -0.44 ± 0.19); ``tree=bets`` (the decisions with a Truco bet in them),
  six seats +0.192 ± 0.155 (506 from 1500; team hands +0.01 ± 0.23, duels +0.40 ±
  0.21), two seats -0.297 ± 0.168 (300 from 1500; capped -0.263 ± 0.081, Truco -0.193
  ± 0.065). Without the root's pairing, 150 worlds do not tell close candidates apart.

The tree tuned, and regret minimisation over the betting (branch truco12, 2026-11-26,
from main 4f75928; nice 19 beside the integrator's jobs, load 2 to 4). Both pimc seats on
the variant, against the default (``--bot pimc:samples=150:V --base pimc:samples=150
--others pimc:samples=150:V,shrewd,shrewd,basic,random --shuffle --history --start 1500
--hands 600``), six seats, 600 hands each (the same hands), capped in brackets:

* the lazy node's table card (``lazy=table``: a node in its lazy visits whose policy's
  card, a random one, ``NOISE``, is not offered plays the card offered rather than
  UCB1's untried action, a fold or a call): +0.107 ± 0.116 (+0.105 ± 0.065);
* UCB1's constant ``explore=1.5`` +0.152 ± 0.142 (+0.120 ± 0.072), ``explore=6``
  +0.118 ± 0.125 (+0.067 ± 0.065), against 3;
* ``widen=4`` +0.200 ± 0.133 (+0.127 ± 0.081), ``widen=16`` +0.160 ± 0.134 (+0.067 ±
  0.078), against 8;
* the searching seat's calls, answers and al mazo below the root by regret matching on
  the sampled rewards instead of UCB1 (``select=regret``, Lisy, Kovarik, Lanctot and
  Bosansky 2013: drawn from the positive regrets mixed with 10% uniform, the reward
  importance-weighed) -0.025 ± 0.160 (-0.020 ± 0.085); the same regrets, the node
  played by its average strategy (``select=averaged``, outcome sampling as Lanctot et
  al. 2009) +0.110 ± 0.153 (+0.075 ± 0.086); Smooth UCT (``select=smooth``, Heinrich
  and Silver 2015: UCB1 nine times in ten early, else the visits' shares) +0.028 ±
  0.133 (-0.003 ± 0.068).
* Every variant, opposite ones alike (``widen`` 4 and 16, ``explore`` 1.5 and 6), read
  about +0.1 (their mean +0.106 ± 0.116), and 173 to 242 of the 600 hands differed:
  the bench's doing. With ``--history`` only the bot under test was served the earlier
  hands' views; the base pimc, learning too (``learn=1``), played knowing nothing of
  the match. Fixed in commit 8958628 (both ways served them). Each run less the mean of
  the other seven, hand by hand (the artefact is common to all): ``widen=4`` +0.107 ±
  0.101, ``widen=16`` +0.061 ± 0.084, ``explore=1.5`` +0.052 ± 0.080, ``explore=6``
  +0.014 ± 0.066, ``lazy=table`` +0.000 ± 0.085, ``averaged`` +0.004 ± 0.086,
  ``smooth`` -0.089 ± 0.070, ``regret`` -0.150 ± 0.099: the regret rules lean below
  UCB1, nothing stands out above it.
* ``lazy=table`` extended before the fix (hands 2100 to 2999, the screen's command):
  +0.166 ± 0.075, all 1500 +0.142 ± 0.065 (capped +0.135 ± 0.040); ``widen=4``
  (564 hands of 2100 to 2821, stopped) +0.016 ± 0.109. A null control the integrator
  asked for (``--bot pimc:samples=151 --base pimc:samples=150 --others
  pimc:samples=151,...``, before the fix, stopped when the cause was found): +0.127 ±
  0.130 (220 hands from 2100; capped +0.073 ± 0.087): a neutral change "gained" as
  much. Two seats (``--seats 2 --bot pimc:samples=300:lazy=table
  --base pimc:samples=300 --others shrewd``, 600 from 1500, before the fix): -0.043 ±
  0.066 (capped -0.005 ± 0.029).
* After the fix, the same command: ``lazy=table`` on hands 2100 to 2549 (the extension's
  first 450, +0.102 ± 0.100 before the fix) -0.040 ± 0.043 (capped -0.002 ± 0.025), 22
  hands of 450 differing; hands 2550 to 2999 +0.016 ± 0.037 (capped +0.020 ± 0.037);
  all 900 -0.012 ± 0.028 (capped +0.009 ± 0.022; Truco -0.001 ± 0.010; 50 hands
  differ). No gain: not kept; ``lazy`` stays an option.
* ``tree=below`` (the default from truco11 until this) re-measured after the fix with truco11's
  command (``--bot pimc:samples=150:tree=below --base pimc:samples=150:tree=off
  --others pimc:samples=150:tree=below,...``), hands 1500 to 3749 (blocks of 450 and
  225, two at a time): +0.056 ± 0.044 (capped +0.061 ± 0.030; Envido +0.005 ± 0.037,
  Truco +0.051 ± 0.022; team hands +0.116 ± 0.065 (1169), duels -0.009 ± 0.060
  (1081); 600 of 2250 hands differ; the first 1350 +0.082 ± 0.061, the last 900
  +0.017 ± 0.062). Its +0.19 ± 0.09 above was measured with the base not served the
  history, which favoured it by about what ``learn`` is worth (+0.13 ± 0.05 above):
  its Truco gain holds (2.3 standard errors), the whole is 1.3 (capped 2.0). Four
  seats after the fix (``--seats 4 --bot pimc:samples=200:tree=below --base
  pimc:samples=200:tree=off --others shrewd,basic,random``, 600 hands from 1500, two
  blocks of 300): -0.088 ± 0.086 (capped -0.033 ± 0.056; Truco -0.035 ± 0.039), where
  +0.28 ± 0.17 was read before it. Two seats were not re-measured.

Run (a statistical bench, no clock in it: at the lowest priority):
``python bench/truco_paired.py [--seats 6] [--hands 400] [--kind duels] [--bot pimc:samples=150]
[--base shrewd] [--others pimc:samples=150,shrewd,shrewd,basic,random] [--shuffle]
[--history] [--out FILE]``; ``python bench/truco_paired.py --compare NEW.jsonl OLD.jsonl``
pairs two runs' ``--out`` files hand by hand.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import random
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stats import mean_se

from arena.games.truco.actions import Action, Answer, Call, Mazo, Play
from arena.games.truco.rules import TrucoRules
from arena.games.truco.state import TrucoMatch
from arena.play.run import load_bot

SIX_OTHERS = "pimc:samples=150,shrewd,shrewd,basic,random"


def kind_of(asked: str, action: Action) -> str:
    """What sort of decision ``action`` was, asked ``asked``."""
    if isinstance(action, Call):
        return "envido call" if action.is_envido else "truco call"
    if isinstance(action, Mazo):
        return "mazo"
    if isinstance(action, Play):
        return "card"
    if isinstance(action, Answer):
        return "envido answer" if asked == "answer-envido" else "truco answer"
    return "declare"


CAP = 5  # "capped": an Envido's points counted up to this (a Falta is the match's luck)
WARM = 8  # up to this many hands played by basic before the tested one


def play_hand(
    rules: TrucoRules, names: Sequence[str], i: int, warm: int
) -> tuple[dict[str, Any], list[tuple[int, str, Action]]]:
    """Hand ``i``, after ``warm`` hands of ``basic``, with seat s played by ``names[s]``:
    its replay record and every decision in it (seat, what was asked, the action)."""
    match = TrucoMatch(rules, match_id=f"pair{i}", seed=f"pair{i}")
    first = [load_bot("basic", str(i), "truco") for _ in names]
    while match.hand_no <= warm and max(match.scores) < rules.points - 5:
        _play(match, first)  # the same both ways
    bots = [load_bot(name, str(i), "truco") for name in names]
    log = _play(match, bots)
    return match.finished[-1], log


def play_both(
    rules: TrucoRules, names: Sequence[str], seat: int, bot: str, base: str, i: int, warm: int
) -> list[tuple[dict[str, Any], list[tuple[int, str, Action]]]]:
    """``--history``: hand ``i`` after ``warm`` hands played by the seating itself, but
    shrewd in the tested seat (these hands only give the history of the other seats'
    play), the same both ways; the bot under test and the base bot are each served the
    tested seat's views of them (``observe``, if it has it), as it would have seen them
    playing, and then each plays the hand from the same position. (Before commit 8958628
    only the bot under test was served them: a base that learns, ``pimc:learn=1``,
    played the hand knowing nothing of the match, which favoured the bot under test.)"""
    match = TrucoMatch(rules, match_id=f"pair{i}", seed=f"pair{i}")
    warm_names = list(names)
    warm_names[seat] = "shrewd"
    first = [load_bot(name, str(i), "truco") for name in warm_names]
    players = {way: load_bot(name, str(i), "truco") for way, name in (("bot", bot), ("base", base))}
    watchers = [w for p in players.values() if (w := getattr(p, "observe", None)) is not None]

    def watch(view: Any) -> None:
        for observe in watchers:
            observe(view)

    while match.hand_no <= warm and max(match.scores) < rules.points - 5:
        _play(match, first, (seat, watch) if watchers else None)
    out = []
    for way_name, name in (("bot", bot), ("base", base)):
        names = list(names)
        names[seat] = name
        bots = [load_bot(n, str(i), "truco") for n in names]
        bots[seat] = players[way_name]
        way = copy.deepcopy(match)
        log = _play(way, bots)
        out.append((way.finished[-1], log))
    return out


def _play(
    match: TrucoMatch, bots: Sequence[Any], watch: tuple[int, Any] | None = None
) -> list[tuple[int, str, Action]]:
    hand = match.hand_no
    log: list[tuple[int, str, Action]] = []
    while not match.is_over and match.hand_no == hand:
        (seat,) = match.to_act()
        legal = match.legal_actions(seat)
        view = match.view(seat)
        if watch is not None and watch[0] == seat:
            watch[1](view)
        picked = bots[seat].act(view, legal)
        action = legal[picked] if isinstance(picked, int) else picked
        log.append((seat, view.asked, action))
        match.apply(seat, action)
    return log


def seating(others: Sequence[str], seat: int, seats: int, i: int, shuffle: bool) -> list[str]:
    """The other seats' bots at hand ``i``, the tested seat left empty: ``others`` in
    turn from the seat after it, or with ``shuffle`` in an order drawn for the hand
    (seeded by it, the same both ways), so that, as in a tournament, whose partner and
    whose first answerer (R6) each of them is varies from hand to hand."""
    order = [others[k % len(others)] for k in range(seats - 1)]
    if shuffle:
        random.Random(f"seating{i}").shuffle(order)
    names = [""] * seats
    for k in range(1, seats):
        names[(seat + k) % seats] = order[k - 1]
    return names


def kind_ok(kind: str, i: int, seats: int) -> bool:
    """Whether hand ``i`` is one ``--kind`` asks for: at six seats the hand after an even
    warm-up is a team hand, after an odd one the duels (R13; unless the warm-up stopped
    short near the target, which the figures then count as what it was)."""
    if kind == "any" or seats != 6:
        return True
    return (i // seats % WARM) % 2 == (1 if kind == "duels" else 0)


def parts(record: dict[str, Any], seat: int) -> dict[str, float]:
    """The hand's points for ``seat``'s team less the other team's, whole and in parts."""
    team = seat % 2
    out: dict[str, float] = defaultdict(float)

    def add(key: str, scored: Sequence[int] | None, points: int | None = None) -> None:
        if scored is None:
            return
        side, value = (scored[0], scored[1]) if points is None else (scored, points)
        out[key] += value if side == team else -value

    for play in record["plays"]:
        env = play["envido"]
        before = dict(out)
        if env is not None and env["team"] is not None:
            add("envido", env["team"], env["points"])  # type: ignore[arg-type]
            add("envido capped", env["team"], min(CAP, env["points"]))  # type: ignore[arg-type]
        if play["truco"] is not None:
            add("truco", play["truco"])
            add(f"truco {play['ended']}", play["truco"])
        if record["kind"] == "duels":
            own = seat in play["seats"]
            got = out.get("envido", 0) + out.get("truco", 0)
            got -= before.get("envido", 0) + before.get("truco", 0)
            out["own duel" if own else "other duels"] += got
    out["total"] = out.get("envido", 0.0) + out.get("truco", 0.0)
    out["capped"] = out.get("envido capped", 0.0) + out.get("truco", 0.0)
    return out


def first_difference(
    a: list[tuple[int, str, Action]], b: list[tuple[int, str, Action]], seat: int
) -> str:
    """The kind of the first decision the two ways took differently (the tested seat's,
    as every other seat sees the same position up to it)."""
    for (sa, asked, act_a), (_, _, act_b) in zip(a, b, strict=False):
        if act_a != act_b:
            if sa != seat:
                return "other seat"
            ka, kb = kind_of(asked, act_a), kind_of(asked, act_b)
            return f"{asked}: {ka}" + ("" if ka == kb else f" (base: {kb})")
    return "same"


class Stat:
    """Gains seen so far, shown as their mean and its standard error."""

    def __init__(self) -> None:
        self.values: list[float] = []

    @property
    def n(self) -> int:
        return len(self.values)

    def add(self, x: float) -> None:
        self.values.append(x)

    def show(self) -> str:
        mean, se = mean_se(self.values)
        return f"{mean:+.3f} ± {se:.3f}"


COMPARED = ("total", "capped", "envido", "truco")


def whole(part: dict[str, float]) -> dict[str, float]:
    """A hand's parts with every ``COMPARED`` key, a part that scored nothing as 0."""
    return {**{key: 0.0 for key in COMPARED}, **part}


SETTING = ("seats", "shuffle", "against")  # what both runs of --compare must share
ROW = ("hand", "seat", "kind", *SETTING, "bot", "base")  # what --compare reads of a row


def read_run(path: Path) -> dict[int, dict[str, Any]]:
    """An ``--out`` file's rows by hand; a file that is not one (unreadable, not JSON, a
    row without a key ``compare`` reads) is refused in one line naming it and the row."""
    rows: dict[int, dict[str, Any]] = {}
    try:
        lines = path.read_text().splitlines()
    except OSError as exc:
        raise SystemExit(f"--compare: {path}: cannot read it ({exc.strerror})") from None
    for n, text in enumerate(lines, 1):
        try:
            row = json.loads(text)
            missing = [k for k in ROW if k not in row] + [
                f"{side}.{k}" for side in ("bot", "base") for k in COMPARED if k not in row[side]
            ]
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(
                f"--compare: {path}:{n}: not a truco_paired --out row ({exc})"
            ) from None
        if missing:
            raise SystemExit(
                f"--compare: {path}:{n}: not a truco_paired --out row (no {', '.join(missing)})"
            )
        rows[row["hand"]] = row
    return rows


def compare(new: Path, old: Path) -> list[str]:
    """Two runs' ``--out`` files on the same hands (the same ``--seats``, ``--start``,
    ``--kind``, ``--shuffle`` and base), paired hand by hand: each run's gain over its
    base and the first's less the second's, with standard errors. This is how a change
    made to every pimc seat at once (``--bot P --others P,...``) is measured: the other
    pimc changes too, so the two runs' base ways differ, and only the hands pair. A hand
    whose seat, kind, seats, shuffling or base (``against``) differ between the runs is
    refused; ``--start`` is not compared, since a hand's index alone fixes its deal and
    seating (two parts of one run pair as one). Files written before 2026-11-26 05:00
    lack the setting and every part's key, and are refused."""
    runs = [read_run(new), read_run(old)]
    hands = sorted(set(runs[0]) & set(runs[1]))
    if len(hands) < 2:
        raise SystemExit(f"--compare: {new} and {old} share {len(hands)} hands; 2 at least")
    for h in hands:  # a hand's index fixes its seat, kind and deal whatever --start was
        a, b = runs[0][h], runs[1][h]
        for key in ("seat", "kind", *SETTING):
            if a[key] != b[key]:
                raise SystemExit(
                    f"--compare: hand {h}: {key} is {a[key]!r} in {new} but {b[key]!r} in {old};"
                    " the runs are not of the same hands"
                )
    out = [f"{len(hands)} hands in both: {new} less {old}"]
    for key in COMPARED:
        gains = [[r[h]["bot"][key] - r[h]["base"][key] for h in hands] for r in runs]
        shown = [f"{m:+.3f} ± {e:.3f}" for m, e in map(mean_se, gains)]
        diff = mean_se([a - b for a, b in zip(*gains, strict=True)])
        out.append(f"  {key}: {shown[0]} and {shown[1]}, paired {diff[0]:+.3f} ± {diff[1]:.3f}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--compare", nargs=2, type=Path, metavar=("NEW", "OLD"),
        help="pair two runs' --out files hand by hand (plays nothing)",
    )  # fmt: skip
    parser.add_argument("--seats", type=int, choices=(2, 4, 6), default=6)
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--start", type=int, default=0, help="the first hand's index")
    parser.add_argument("--bot", default="pimc:samples=150")
    parser.add_argument("--base", default="shrewd")
    parser.add_argument("--others", default=None, help="the other seats' bots, a,b,...")
    parser.add_argument("--every", type=int, default=50, help="print the figures this often")
    parser.add_argument(
        "--kind", choices=("any", "team", "duels"), default="any",
        help="at six seats, only the hands after an even (team) or odd (duels) warm-up",
    )  # fmt: skip
    parser.add_argument(
        "--shuffle", action="store_true",
        help="the other seats' bots in an order drawn for each hand (as a tournament seats them)",
    )  # fmt: skip
    parser.add_argument(
        "--history", action="store_true",
        help="the hands before the tested one played by its seating, both bots shown them",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, help="write each hand's figures here (JSON lines)")
    args = parser.parse_args()
    if args.compare:
        print("\n".join(compare(*args.compare)))
        return
    if args.hands < 2:
        parser.error("--hands must be at least 2")
    others = (args.others or (SIX_OTHERS if args.seats == 6 else "shrewd")).split(",")
    rules = TrucoRules(seats=args.seats)
    seats = args.seats
    total, by_kind = Stat(), {"team": Stat(), "duels": Stat()}
    capped = Stat()
    sums: dict[str, float] = defaultdict(float)  # each part's gain, summed over hands
    counts: dict[str, int] = defaultdict(int)  # hands by first difference
    started = time.perf_counter()
    wanted = (i for i in itertools.count(args.start) if kind_ok(args.kind, i, seats))
    for n, i in enumerate(itertools.islice(wanted, args.hands), 1):
        seat, warm = i % seats, i // seats % WARM
        names = seating(others, seat, seats, i, args.shuffle)
        if args.history:
            (rec_a, log_a), (rec_b, log_b) = play_both(
                rules, names, seat, args.bot, args.base, i, warm
            )
        else:
            names[seat] = args.bot
            rec_a, log_a = play_hand(rules, names, i, warm)
            names[seat] = args.base
            rec_b, log_b = play_hand(rules, names, i, warm)
        duels = rec_a["kind"] == "duels"
        pa, pb = parts(rec_a, seat), parts(rec_b, seat)
        gain = pa["total"] - pb["total"]
        total.add(gain)
        capped.add(pa["capped"] - pb["capped"])
        by_kind["duels" if duels else "team"].add(gain)
        for key in set(pa) | set(pb):
            if key not in ("total", "capped"):
                sums[key] += pa.get(key, 0.0) - pb.get(key, 0.0)
        first = first_difference(log_a, log_b, seat)
        counts[first] += 1
        sums[f"first: {first}"] += gain
        if args.out is not None:
            with args.out.open("a") as out:
                line = {"hand": i, "seat": seat, "kind": "duels" if duels else "team",
                        "seats": seats, "shuffle": args.shuffle, "against": args.base,
                        "gain": gain, "first": first, "bot": whole(pa), "base": whole(pb),
                        "calls_bot": [str(a) for s, _, a in log_a if s == seat],
                        "calls_base": [str(a) for s, _, a in log_b if s == seat]}  # fmt: skip
                out.write(json.dumps(line) + "\n")
        if n % args.every == 0 or n == args.hands:
            report(args, n, total, by_kind, capped, sums, counts, time.perf_counter() - started)


def report(
    args: argparse.Namespace,
    n: int,
    total: Stat,
    by_kind: dict[str, Stat],
    capped: Stat,
    sums: dict[str, float],
    counts: dict[str, int],
    took: float,
) -> None:
    print(f"{args.seats} seats, {n} hands ({took:.0f}s): {args.bot} - {args.base} = "
          f"{total.show()} points a hand", flush=True)  # fmt: skip
    kinds = ", ".join(f"{k} {s.show()} ({s.n})" for k, s in by_kind.items() if s.n)
    print(f"  by kind: {kinds}")
    print(f"  capped: {capped.show()} points a hand (an Envido counted up to {CAP})")
    for key in sorted(k for k in sums if not k.startswith("first")):
        print(f"  {key}: {sums[key] / n:+.3f}")
    for key in sorted(counts):
        print(f"  first {key}: {counts[key]} hands, {sums['first: ' + key] / n:+.3f} a hand")


if __name__ == "__main__":
    main()
