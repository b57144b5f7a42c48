dtmc
module m
  x : [0..3] init 0;
  [] x=0 -> (x'=1);
endmodule
rewards "r" true : 1; endrewards
rewards "r" true : 2; endrewards
