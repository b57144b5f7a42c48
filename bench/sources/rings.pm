// G rings of L states each, entered from a short chain of coin flips: every
// ring is one SCC, and all G lie at one depth of the condensation. Used by
// bench/side_by_side.sh (the chains' topological solver, SCCs side by side).
dtmc
const int G;
const int L;
module rings
  s : [0..1] init 0;  // 0: choosing a ring, 1: in ring g
  f : bool init false;
  g : [0..G] init 0;
  i : [0..L] init 0;  // L: left the ring
  [] s=0 & g<G -> 0.5:(g'=g+1) + 0.5:(s'=1);
  [] s=0 & g=G -> (s'=1);
  [] s=1 & i<L -> 0.45:(i'=mod(i+1, L)) + 0.45:(i'=mod(i+L-7, L)) + 0.05*(1+g/G):(i'=L)
                  + (0.1-0.05*(1+g/G)):(i'=L)&(f'=true);
  [] s=1 & i=L -> true;
endmodule
label "goal" = i=L & !f;
