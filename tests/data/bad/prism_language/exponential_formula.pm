formula f0 = x;
formula f1 = f0 + f0;
formula f2 = f1 + f1;
formula f3 = f2 + f2;
formula f4 = f3 + f3;
formula f5 = f4 + f4;
formula f6 = f5 + f5;
formula f7 = f6 + f6;
formula f8 = f7 + f7;
formula f9 = f8 + f8;
formula f10 = f9 + f9;
formula f11 = f10 + f10;
formula f12 = f11 + f11;
formula f13 = f12 + f12;
formula f14 = f13 + f13;
formula f15 = f14 + f14;
formula f16 = f15 + f15;
formula f17 = f16 + f16;
formula f18 = f17 + f17;
formula f19 = f18 + f18;
formula f20 = f19 + f19;
formula f21 = f20 + f20;
formula f22 = f21 + f21;
formula f23 = f22 + f22;
formula f24 = f23 + f23;
formula f25 = f24 + f24;
dtmc
module m
  x : [0..3] init 0;
  [] f25>0 -> (x'=1);
endmodule
