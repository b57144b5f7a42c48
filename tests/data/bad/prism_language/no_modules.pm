dtmc
const int N = 1;
