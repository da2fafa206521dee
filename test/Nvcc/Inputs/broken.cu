__global__ void k(float *v) { v[0] = 1 }
int main() { return 0; }
