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
