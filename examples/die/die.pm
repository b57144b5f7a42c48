// A fair six-sided die thrown with a fair coin, after Knuth & Yao (1976):
// the coin walks down a binary tree whose leaves are the six faces; two of
// the seven inner nodes lead back up, so the walk may take any number of
// flips, but it ends with probability 1 and every face has probability 1/6.
// Written for pmc; die.tra/.lab/.srew/.sta are this model as
// `pmc convert die.pm die.tra` writes it (PRISM's explicit format).
//   P=? [ F "six" ]                  = 1/6
//   R{"coin_flips"}=? [ F "done" ]   = 11/3
dtmc

module knuth_yao
  // s: the tree node, 0 the root, 1..6 the inner nodes, 7 a face reached.
  // d: the face shown once s=7 (0 before).
  s : [0..7] init 0;
  d : [0..6] init 0;

  // The root and its two children branch to nodes 2s+1 and 2s+2.
  [] s<3 -> 1/2 : (s'=2*s+1) + 1/2 : (s'=2*s+2);
  // Nodes 3 and 6 either give face 1 (or 6) or climb back to 1 (or 2).
  [] s=3 -> 1/2 : (s'=1) + 1/2 : (s'=7) & (d'=1);
  [] s=6 -> 1/2 : (s'=2) + 1/2 : (s'=7) & (d'=6);
  // Nodes 4 and 5 split faces 2,3 and 4,5.
  [] s=4 | s=5 -> 1/2 : (s'=7) & (d'=2*s-6) + 1/2 : (s'=7) & (d'=2*s-5);
  // The face stays shown.
  [] s=7 -> true;
endmodule

// One coin flip per step until a face shows.
rewards "coin_flips"
  s<7 : 1;
endrewards

label "done" = s=7;
label "one" = s=7 & d=1;
label "two" = s=7 & d=2;
label "three" = s=7 & d=3;
label "four" = s=7 & d=4;
label "five" = s=7 & d=5;
label "six" = s=7 & d=6;
