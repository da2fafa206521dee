// What scripts/check-api-names reports (the .test beside this file says which).
bool isCopy(llvm::StringRef Name) { return Name == "cudaMemcpy"; }
bool isRelease(const ApiFunction &Api) { return Api.Name == "free"; }
std::string why() { return "it is released by `free`"; }
std::string call() { return "cudaStreamSynchronize(s);"; }
std::string helper() { return "  return malloc(bytes);"; }
bool isStream(llvm::StringRef Type) { return Type == "cudaStream_t"; }
void emit(llvm::raw_ostream &OS) { OS << "cudaFree made stream-ordered"; }
cudaError_t status();
// Not reported: a comment naming cudaMalloc or free(p),
std::string fine() { return apiName(ApiId::cudaMalloc).str() + "(&p, n)"; }
bool success(llvm::StringRef N) { return isApiSymbol(N, ApiSymbol::cudaSuccess); }
std::string prose() { return "what the call may free or create"; }
void ownCode(std::vector<int> &V) { std::sort(V.begin(), V.end()); }
const char *kind() { return "free"; } // not an API name
/* nor cudaDeviceSynchronize in a block comment */
