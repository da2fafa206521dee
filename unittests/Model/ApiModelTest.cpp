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
