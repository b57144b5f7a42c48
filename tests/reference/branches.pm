// A DTMC with three bottom strongly connected components of different kinds
// and a deadlock: from the start the chain may fall into a two-state
// component, a cycle of period 3, or a state with no outgoing transition
// (s=7), which pmc completes with a self-loop (and a warning) as PRISM does.
// Written for pmc's self-contained reference set (tests/reference/README.md).
dtmc

module branches
  s : [0..7] init 0;

  [] s=0 -> 1/4 : (s'=1) + 1/4 : (s'=3) + 1/2 : (s'=6);
  // {1, 2}: aperiodic
  [] s=1 -> 1/2 : (s'=1) + 1/2 : (s'=2);
  [] s=2 -> 1/3 : (s'=1) + 2/3 : (s'=2);
  // {3, 4, 5}: a cycle
  [] s=3 -> (s'=4);
  [] s=4 -> (s'=5);
  [] s=5 -> (s'=3);
  // 6 goes back to the start or on to the deadlock 7
  [] s=6 -> 1/5 : (s'=0) + 4/5 : (s'=7);
endmodule

rewards "r"
  s=1 : 2;
  s=2 : 5;
  s=4 : 9;
  s=7 : 1;
endrewards

rewards "steps"
  true : 1;
endrewards

label "pair" = s=1 | s=2;
label "cycle" = s>=3 & s<=5;
label "stuck" = s=7;
