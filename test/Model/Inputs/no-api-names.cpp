// A file that names no API: scripts/check-api-names passes it.
std::string fine() { return apiName(ApiId::cudaMalloc).str() + "(&p, n)"; }
