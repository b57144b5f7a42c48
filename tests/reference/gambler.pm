// Gambler's ruin: a gambler bets one unit at a time, winning it with
// probability p and losing it otherwise, until she owns N units or none.
// Written for pmc's self-contained reference set (tests/reference/README.md);
// exact values in manifest.tsv, from exact_values.py.
dtmc

const double p;    // probability of winning a bet
const int N;       // the gambler stops once she owns N
const int start;   // what she owns at first

module gambler
  x : [0..N] init start;

  [bet] 0<x & x<N -> p : (x'=x+1) + 1-p : (x'=x-1);
  [] x=0 | x=N -> true;
endmodule

// One per bet, on the transitions (PRISM's .trew).
rewards "bets"
  [bet] true : 1;
endrewards

// What she owns, a state reward (for I=k and C<=k).
rewards "wealth"
  true : x;
endrewards

label "ruin" = x=0;
label "rich" = x=N;
