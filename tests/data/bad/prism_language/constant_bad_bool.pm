const bool B;
dtmc
module m
  x : [0..3] init 0;
  [] B -> (x'=1);
endmodule
