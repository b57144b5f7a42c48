dtmc
module m
  x : [0..3] init 0;
  [] x=0 -> (x'=1);
endmodule
module n
  x : [0..1];
  [] true -> true;
endmodule
