//===- ApiModelTest.cpp - The API table is consistent ------------------------===//
#include "streamalloc/Model/ApiModel.h"

#include "llvm/ADT/SmallVector.h"

#include "gtest/gtest.h"

using namespace streamalloc;

TEST(ApiModel, LooksUpModelledFunctionsByName) {
  const ApiFunction *Memcpy = lookupApi("cudaMemcpy");
  ASSERT_NE(Memcpy, nullptr);
  EXPECT_EQ(Memcpy->Kind, ApiKind::GpuCopy);
  EXPECT_EQ(Memcpy->AsyncName, "cudaMemcpyAsync");
  EXPECT_EQ(Memcpy->roleOf(0), ArgRole::Write);
  EXPECT_EQ(Memcpy->roleOf(1), ArgRole::Read);
  EXPECT_EQ(Memcpy->roleOf(2), ArgRole::None);
  EXPECT_EQ(lookupApi("notAFunctionAnyoneModels"), nullptr);
}

TEST(ApiModel, VariadicRoleCoversEveryLaterArgument) {
  const ApiFunction *Printf = lookupApi("printf");
  ASSERT_NE(Printf, nullptr);
  EXPECT_EQ(Printf->roleOf(0), ArgRole::Read);
  EXPECT_EQ(Printf->roleOf(7), ArgRole::Read);
  const ApiFunction *Fprintf = lookupApi("fprintf");
  EXPECT_EQ(Fprintf->roleOf(0), ArgRole::None); // the FILE* is libc's state
  EXPECT_EQ(Fprintf->roleOf(3), ArgRole::Read);
}

TEST(ApiModel, EveryGpuOpHasAnAsyncFormWithAStreamSlot) {
  for (unsigned I = 0; I < apiModelSize(); ++I) {
    const ApiFunction &Row = apiModelRow(I);
    if (!Row.isGpuOp())
      continue;
    EXPECT_FALSE(Row.AsyncName.empty()) << Row.Name.str();
    EXPECT_GE(Row.StreamArgIndex, Row.Roles.size()) << Row.Name.str();
    // Every parameter between the explicit ones and the stream has a default.
    if (!Row.Defaults.empty()) {
      llvm::SmallVector<llvm::StringRef, 4> Defaults;
      Row.Defaults.split(Defaults, ',');
      EXPECT_EQ(Row.FirstDefaultedArg + Defaults.size(), Row.StreamArgIndex) << Row.Name.str();
    }
  }
}

TEST(ApiModel, RolesUseOnlyKnownLetters) {
  for (unsigned I = 0; I < apiModelSize(); ++I)
    for (char C : apiModelRow(I).Roles)
      EXPECT_NE(llvm::StringRef("-rwbofsSu*+").find(C), llvm::StringRef::npos)
          << apiModelRow(I).Name.str() << " has role '" << C << "'";
}

TEST(ApiModel, NamesAreUnique) {
  for (unsigned I = 0; I < apiModelSize(); ++I)
    EXPECT_EQ(lookupApi(apiModelRow(I).Name), &apiModelRow(I)) << apiModelRow(I).Name.str();
}

TEST(ApiModel, AllocationRowsSayWhereTheObjectLives) {
  EXPECT_EQ(lookupApi("cudaMalloc")->Allocates, MemorySpace::Device);
  EXPECT_EQ(lookupApi("cudaMallocHost")->Allocates, MemorySpace::HostPinned);
  EXPECT_EQ(lookupApi("malloc")->Allocates, MemorySpace::HostPageable);
  EXPECT_TRUE(lookupApi("malloc")->ReturnsAllocation);
  EXPECT_EQ(lookupApi("cudaMalloc")->roleOf(0), ArgRole::OutAlloc);
}

TEST(ApiModel, LibraryOnlyRowsAreNamedWithTheirNamespace) {
  EXPECT_EQ(lookupApi("copy"), nullptr); // a program's own `copy` is not std::copy
  ASSERT_NE(lookupApi("std::copy"), nullptr);
  EXPECT_EQ(lookupApi("std::copy")->roleOf(2), ArgRole::Write);
  EXPECT_FALSE(lookupApi("std::copy")->isMember());
}

TEST(ApiModel, ContainerMembersTakeTheContainerAsRoleZero) {
  for (unsigned I = 0; I < apiModelSize(); ++I) {
    const ApiFunction &Row = apiModelRow(I);
    if (Row.Kind == ApiKind::ContainerElements || Row.Kind == ApiKind::ContainerAssign ||
        Row.Kind == ApiKind::ContainerSwap) {
      EXPECT_TRUE(Row.isMember()) << Row.Name.str();
    }
    if (Row.Kind == ApiKind::ContainerNew) {
      EXPECT_FALSE(Row.isMember()) << Row.Name.str();
    }
  }
  EXPECT_EQ(lookupApi("std::vector::push_back")->roleOf(0), ArgRole::Free); // may reallocate
  EXPECT_EQ(lookupApi("std::vector::data")->Kind, ApiKind::ContainerElements);
}

TEST(ApiModel, IssueRowsArePresent) {
  for (const char *Name : {"cudaMemcpy",
                           "cudaMemcpy2D",
                           "cudaMemcpy3D",
                           "cudaMemcpyToSymbol",
                           "cudaMemcpyFromSymbol",
                           "cudaMemcpyPeer",
                           "cudaMemset",
                           "cudaMemset2D",
                           "cudaMemset3D",
                           "cudaMemcpyAsync",
                           "cudaMemcpy2DAsync",
                           "cudaMemsetAsync",
                           "malloc",
                           "calloc",
                           "realloc",
                           "free",
                           "posix_memalign",
                           "cudaMalloc",
                           "cudaMallocHost",
                           "cudaHostAlloc",
                           "cudaMallocManaged",
                           "cudaFree",
                           "cudaFreeHost",
                           "cudaHostRegister",
                           "cudaHostUnregister",
                           "cudaMemPrefetchAsync",
                           "cudaDeviceSynchronize",
                           "cudaStreamSynchronize",
                           "cudaEventSynchronize",
                           "cudaThreadSynchronize",
                           "cudaGetLastError",
                           "cudaGetDeviceProperties",
                           "cudaEventRecord",
                           "cudaEventElapsedTime",
                           "printf",
                           "fwrite",
                           "memcpy",
                           "std::vector",
                           "std::copy",
                           "std::fill",
                           "sqrt"})
    EXPECT_NE(lookupApi(Name), nullptr) << Name;
  EXPECT_EQ(lookupApi("cudaDeviceSynchronize")->Kind, ApiKind::DeviceSync);
  EXPECT_EQ(lookupApi("cudaStreamSynchronize")->Kind, ApiKind::OtherSync);
  EXPECT_EQ(lookupApi("sqrt")->Kind, ApiKind::Pure);
  EXPECT_EQ(lookupApi("cudaMallocManaged")->Allocates, MemorySpace::Managed);
  EXPECT_EQ(lookupApi("cudaHostUnregister")->roleOf(0), ArgRole::ReadWrite);
}

TEST(ApiModel, ApiIdNamesEachRowInTableOrder) {
  for (unsigned I = 0; I < apiModelSize(); ++I)
    EXPECT_EQ(&apiRow(apiModelRow(I).Id), &apiModelRow(I)) << apiModelRow(I).Name.str();
  EXPECT_EQ(apiName(ApiId::cudaMemcpy), "cudaMemcpy");
  EXPECT_EQ(apiName(ApiId::std_vector_push_back), "std::vector::push_back");
  EXPECT_EQ(apiName(ApiId::std_chrono_steady_clock_now), "std::chrono::steady_clock::now");
}

TEST(ApiModel, DefaultsOfEachSection) {
  // A row of the C library states only its kind and roles.
  const ApiFunction &Strlen = apiRow(ApiId::strlen);
  EXPECT_EQ(Strlen.Kind, ApiKind::Host);
  EXPECT_EQ(Strlen.Allocates, MemorySpace::None);
  EXPECT_FALSE(Strlen.ReturnsAllocation);
  EXPECT_TRUE(Strlen.AsyncName.empty());
  EXPECT_EQ(Strlen.CopyKindArg, NoArgument);
  EXPECT_FALSE(Strlen.WritesOutput);
  EXPECT_FALSE(Strlen.CudaRuntime);
  EXPECT_EQ(Strlen.Cap, ApiCap::None);
  EXPECT_TRUE(apiRow(ApiId::printf).WritesOutput);
  EXPECT_TRUE(apiRow(ApiId::strdup).ReturnsAllocation);
  EXPECT_EQ(apiRow(ApiId::strdup).Allocates, MemorySpace::HostPageable);
  EXPECT_EQ(apiRow(ApiId::sqrt).Kind, ApiKind::Pure);
  EXPECT_EQ(apiRow(ApiId::std_vector).Kind, ApiKind::ContainerNew);
  EXPECT_EQ(apiRow(ApiId::std_vector).Allocates, MemorySpace::HostPageable);
  EXPECT_EQ(apiRow(ApiId::exit).Kind, ApiKind::ProgramExit);
  EXPECT_EQ(apiRow(ApiId::abort).Kind, ApiKind::ProgramExit);
}

TEST(ApiModel, CudaRuntimeRowsAreTheCudaNamedOnes) {
  for (unsigned I = 0; I < apiModelSize(); ++I) {
    const ApiFunction &Row = apiModelRow(I);
    EXPECT_EQ(Row.CudaRuntime, Row.Name.starts_with("cuda")) << Row.Name.str();
  }
  EXPECT_TRUE(hasNamePrefix(ApiNameGroup::CudaRuntime, "cudaCheckErrorOfMyOwn"));
  EXPECT_FALSE(hasNamePrefix(ApiNameGroup::CudaRuntime, "cublasSgemm"));
  EXPECT_TRUE(hasNamePrefix(ApiNameGroup::GpuLibrary, "cublasSgemm"));
  EXPECT_TRUE(hasNamePrefix(ApiNameGroup::GpuLibrary, "ncclAllReduce"));
  EXPECT_TRUE(hasNamePrefix(ApiNameGroup::LaunchConfiguration, "__cudaPushCallConfiguration"));
  EXPECT_TRUE(isGpuLibraryHeader("/usr/local/CUDA/include/cublas_v2.h"));
  EXPECT_FALSE(isGpuLibraryHeader("/usr/include/stdio.h"));
}

TEST(ApiModel, CapabilitiesSitOnTheRowsThatHaveThem) {
  EXPECT_EQ(apiWith(ApiCap::StreamOrderableAlloc).Name, "cudaMalloc");
  EXPECT_EQ(apiWith(ApiCap::StreamOrderableAlloc).AsyncName, "cudaMallocAsync");
  EXPECT_EQ(apiWith(ApiCap::StreamOrderableRelease).Name, "cudaFree");
  EXPECT_EQ(apiWith(ApiCap::StreamOrderableRelease).AsyncName, "cudaFreeAsync");
  EXPECT_EQ(apiWith(ApiCap::PinnableRelease).Name, "free");
  EXPECT_EQ(apiWith(ApiCap::QueriesFreeMemory).Name, "cudaMemGetInfo");
  EXPECT_EQ(apiWith(ApiCap::LaunchesKernel).Name, "cudaLaunchKernel");
  EXPECT_EQ(apiWith(ApiCap::LinearCopy).Name, "cudaMemcpy");
  EXPECT_EQ(apiOfKind(ApiKind::DeviceReset).Name, "cudaDeviceReset");
  EXPECT_EQ(apiOfKind(ApiKind::DeviceSync).Name, "cudaDeviceSynchronize");
  for (unsigned I = 0; I < apiModelSize(); ++I) {
    const ApiFunction &Row = apiModelRow(I);
    // What the rewrites once read from the names.
    EXPECT_EQ(Row.has(ApiCap::EnqueuesOnStream), Row.Name.ends_with("Async")) << Row.Name.str();
    EXPECT_EQ(Row.has(ApiCap::PageLocks), Row.Name.starts_with("cudaHost")) << Row.Name.str();
    EXPECT_EQ(Row.has(ApiCap::PinnableAlloc), Row.Name == "malloc" || Row.Name == "calloc")
        << Row.Name.str();
  }
}

TEST(ApiModel, AsynchronousCopyOrFillHasItsSynchronousFormsRowAndStreamPosition) {
  const ApiFunction *Sync = synchronousFormOf(*lookupApi("cudaMemcpyAsync"));
  ASSERT_TRUE(Sync);
  EXPECT_EQ(Sync->Name, "cudaMemcpy");
  EXPECT_EQ(Sync->StreamArgIndex, 4u);
  EXPECT_EQ(synchronousFormOf(*lookupApi("cudaMemsetAsync"))->Name, "cudaMemset");
  EXPECT_EQ(synchronousFormOf(*lookupApi("cudaMemcpyToSymbolAsync"))->StreamArgIndex, 5u);
  // cudaMallocAsync is the stream-ordered form of an allocation, not of a GPU op.
  EXPECT_EQ(synchronousFormOf(*lookupApi("cudaMallocAsync")), nullptr);
  EXPECT_EQ(synchronousFormOf(*lookupApi("cudaMemcpy")), nullptr);
}

TEST(ApiModel, CopyKindArgumentIsAScalarArgumentOfACopy) {
  EXPECT_EQ(lookupApi("cudaMemcpy")->CopyKindArg, 3u);
  EXPECT_EQ(lookupApi("cudaMemcpyFromSymbol")->CopyKindArg, 4u);
  EXPECT_EQ(lookupApi("cudaMemcpyPeer")->CopyKindArg, NoArgument);
  for (unsigned I = 0; I < apiModelSize(); ++I) {
    const ApiFunction &Row = apiModelRow(I);
    if (Row.CopyKindArg == NoArgument)
      continue;
    EXPECT_EQ(Row.Kind, ApiKind::GpuCopy) << Row.Name.str();
    EXPECT_LT(Row.CopyKindArg, Row.StreamArgIndex) << Row.Name.str();
    EXPECT_EQ(Row.roleOf(Row.CopyKindArg), ArgRole::None) << Row.Name.str();
  }
}

TEST(ApiModel, SymbolsAreSpelledAsInTheCudaHeaders) {
  EXPECT_EQ(apiSymbol(ApiSymbol::cudaStream_t), "cudaStream_t");
  EXPECT_EQ(apiSymbol(ApiSymbol::cudaMemcpyDeviceToHost), "cudaMemcpyDeviceToHost");
  EXPECT_TRUE(isApiSymbol("cudaSuccess", ApiSymbol::cudaSuccess));
  EXPECT_FALSE(isApiSymbol("cudaSuccess", ApiSymbol::cudaError_t));
}
