% A small database for the all-solutions predicates (bagof/setof grouping, aggregate_all).
item(apple, fruit, 3).
item(banana, fruit, 1).
item(carrot, vegetable, 2).
item(cherry, fruit, 5).
item(leek, vegetable, 4).
item(salmon, fish, 12).
item(apple, fruit, 3).
item(tuna, fish, 9).

owns(ann, car).
owns(ann, bike).
owns(bob, bike).
owns(cid, boat).
owns(bob, car).
owns(dee, bike).

score(ann, math, 90).
score(ann, art, 75).
score(bob, math, 60).
score(bob, art, 85).
score(cid, math, 60).
score(cid, art, 60).

% Terms that are not ground, for the variable-witness cases.
pair(1, _).
pair(2, x).
pair(3, _).

colour(red).
colour(green).
colour(blue).
