// A host buffer a class allocates in its constructor (an assignment or an
// initialiser) and releases in its destructor, reached by callers only
// through a member function that returns the pointer or a reference into it,
// is pinned in the class itself: the constructor's allocation and the
// destructor's release are rewritten once for every object, also when two
// functions each pin objects of the class. The copies of
// both objects then run asynchronously and the host work overlaps them.
//
// RUN: %strip %s > %t.cu
// RUN: %streamalloc %t.cu -o %t.out.cu --report-file=%t.report
// RUN: %FileCheck %s < %t.out.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t.report
// RUN: %nvcc %t.out.cu
#include <cstdio>
#include <cstdlib>

__global__ void scale(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] *= 2.0f;
}

class HostImage {
public:
  explicit HostImage(int n) : n_(n) {
    p_ = (float *)malloc(n * sizeof(float));
    // CHECK: p_ = (float *)sa_registered_malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i)
      p_[i] = i;
  }
  ~HostImage() { free(p_); }
  // CHECK: ~HostImage() { sa_registered_free(p_); }
  HostImage(const HostImage &) = delete;
  HostImage &operator=(const HostImage &) = delete;
  float *data() { return p_; }
  int size() const { return n_; }

private:
  float *p_;
  int n_;
};

struct Samples {
  float *v;
  explicit Samples(int n) : v(new float[n]) {}
  // CHECK: explicit Samples(int n) : v(static_cast<float *>(sa_registered_malloc(sizeof(float) * (n)))) {}
  ~Samples() { delete[] v; }
  // CHECK: ~Samples() { sa_registered_free(v); }
  float &operator[](int i) { return v[i]; }
};

static double cpu_work(int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += i * 0.5;
  return s;
}

static double round_trip(float *d, int n) {
  HostImage t(n);
  cudaMemcpy(d, t.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, t.data(), n * sizeof(float), cudaMemcpyHostToDevice, sa_stream(0));
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(t.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  double s = cpu_work(n);
  return s + t.data()[1];
}

int main() {
  const int n = 1 << 22;
  HostImage in(n), out(n);
  Samples extra(n);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  // CHECK: cudaMemcpyAsync(d, in.data(), n * sizeof(float), cudaMemcpyHostToDevice, sa_stream(0));
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(out.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(out.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[01]}}));
  cudaMemcpy(&extra[0], d, n * sizeof(float), cudaMemcpyDeviceToHost);
  // CHECK: cudaMemcpyAsync(&extra[0], d, n * sizeof(float), cudaMemcpyDeviceToHost, sa_stream({{[01]}}));
  double s = cpu_work(n);
  // CHECK: double s = cpu_work(n);
  // CHECK: cudaStreamSynchronize(sa_stream(0)); // streamalloc: p_ (allocated in `HostImage`) is read below{{.*}}
  printf("%f %f %f\n", out.data()[5], extra[7], s);
  printf("%f\n", round_trip(d, n));
  cudaFree(d);
  return 0;
}
// REPORT: {{.*}}: host buffer `p_ (allocated in `HostImage`)`: registered: {{.*}}for every object of the class
// REPORT: {{.*}}: host buffer `p_ (allocated in `HostImage`)`: registered: asynchronous copies of pageable memory block the host; the change is made in `HostImage`'s constructor, for every object of the class
// REPORT: {{.*}}: host buffer `p_ (allocated in `HostImage`)`: registered: {{.*}}for every object of the class
// REPORT: {{.*}}: host buffer `{{.*}} (allocated in `Samples`)`: registered: {{.*}}in `Samples`'s constructor, for every object of the class
