// Gambler's ruin: a gambler with x units bets one unit per round, winning
// with probability 2/5, until she has nothing or N. Written for pmc's model
// generator tests: each binding builds this model through callbacks, with
// the state as one byte (x), and must get the same model as this source.
//   P=? [ F "win" ]                 = (1 - 1.5^5) / (1 - 1.5^10) ≈ 0.116364
//   R{"rounds"}=? [ F "done" ]
dtmc

const int N = 10;

module gambler
  x : [0..N] init 5;

  [bet] x>0 & x<N -> 2/5 : (x'=x+1) + 3/5 : (x'=x-1);
  [] x=0 | x=N -> true;
endmodule

rewards "rounds"
  x>0 & x<N : 1;
endrewards

label "win" = x=N;
label "done" = x=0 | x=N;
