// Knuth & Yao's die: a fair six-sided die from fair coin flips.
// die.tra/.lab/.srew/.sta hold this model in PRISM's explicit export format
// (as `prism die.pm -exportmodel die.all` writes it). Reference values:
//   P=? [ F "six" ]                  = 1/6
//   R{"coin_flips"}=? [ F "done" ]   = 11/3
dtmc

module die
  s : [0..7] init 0;
  d : [0..6] init 0;

  [] s=0 -> 0.5 : (s'=1) + 0.5 : (s'=2);
  [] s=1 -> 0.5 : (s'=3) + 0.5 : (s'=4);
  [] s=2 -> 0.5 : (s'=5) + 0.5 : (s'=6);
  [] s=3 -> 0.5 : (s'=1) + 0.5 : (s'=7) & (d'=1);
  [] s=4 -> 0.5 : (s'=7) & (d'=2) + 0.5 : (s'=7) & (d'=3);
  [] s=5 -> 0.5 : (s'=7) & (d'=4) + 0.5 : (s'=7) & (d'=5);
  [] s=6 -> 0.5 : (s'=2) + 0.5 : (s'=7) & (d'=6);
  [] s=7 -> (s'=7);
endmodule

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
