// The coupon collector: 5 kinds of coupon, 2 drawn (uniformly, with
// replacement) in every round, rounds until every kind has been drawn.
// Each draw is a step of its own and earns nothing; the step that ends a
// round earns 1 "numberDraws" (a transition reward) and, counted the other
// way, the state that ends it earns 1 "roundsByState" (a state reward,
// earned when the state is left): both count rounds, so reward bounds over
// either give the same probabilities.
dtmc

formula all = c0 & c1 & c2 & c3 & c4;

module coupons
  c0 : bool init false;
  c1 : bool init false;
  c2 : bool init false;
  c3 : bool init false;
  c4 : bool init false;
  drawn : [0..2] init 0;  // coupons drawn in this round

  [draw] drawn < 2 & !(drawn = 0 & all) ->
      0.2 : (c0' = true) & (drawn' = drawn + 1) + 0.2 : (c1' = true) & (drawn' = drawn + 1)
    + 0.2 : (c2' = true) & (drawn' = drawn + 1) + 0.2 : (c3' = true) & (drawn' = drawn + 1)
    + 0.2 : (c4' = true) & (drawn' = drawn + 1);
  [round] drawn = 2 -> (drawn' = 0);
  [done] drawn = 0 & all -> true;
endmodule

// The run's end, named as in the properties of the probabilistic program
// this model follows (its return point).
label "_ret0_" = drawn = 0 & all;

rewards "numberDraws"
  [round] true : 1;
endrewards

rewards "roundsByState"
  drawn = 2 : 1;
endrewards
