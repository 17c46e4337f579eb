// Memory order and staggering from text (core/enum_text): the one set of spellings every front
// end accepts (C API, Fortran module, WRF's I/O package).
#include <gtest/gtest.h>

#include <string>

#include "core/enum_text.hpp"
#include "nwpio/error.hpp"

namespace nwpio::detail {
namespace {

TEST(EnumText, MemoryOrders) {
  EXPECT_EQ(memory_order_from_text("XZY"), MemoryOrder::XZY);
  EXPECT_EQ(memory_order_from_text(" xyz "), MemoryOrder::XYZ);
  EXPECT_EQ(memory_order_from_text("Xy"), MemoryOrder::XY);
  EXPECT_EQ(memory_order_from_text("z"), MemoryOrder::Z);
  EXPECT_EQ(memory_order_from_text("C"), MemoryOrder::Z);  // WRF's 1-D arrays off the model's grid
  EXPECT_EQ(memory_order_from_text("0"), MemoryOrder::Scalar);
  for (const char* bad : {"", " ", "YXZ", "ZZ", "X", "XZYX", "X Y", "xsz", "XZY\t", "O"}) {
    EXPECT_FALSE(memory_order_from_text(bad)) << "'" << bad << "'";
  }
  // Every value has one spelling that reads back (to_string is what files and messages say).
  for (MemoryOrder o : {MemoryOrder::XZY, MemoryOrder::XYZ, MemoryOrder::XY, MemoryOrder::Z, MemoryOrder::Scalar}) {
    EXPECT_EQ(memory_order_from_text(to_string(o)), o);
  }
}

TEST(EnumText, Staggers) {
  EXPECT_EQ(stagger_from_text(""), Stagger::None);
  EXPECT_EQ(stagger_from_text("   "), Stagger::None);
  EXPECT_EQ(stagger_from_text("x"), Stagger::X);
  EXPECT_EQ(stagger_from_text(" Y"), Stagger::Y);
  EXPECT_EQ(stagger_from_text("Z "), Stagger::Z);
  EXPECT_EQ(stagger_from_text("XY"), Stagger::XY);
  EXPECT_EQ(stagger_from_text("yx"), Stagger::XY);
  for (const char* bad : {"W", "XZ", "XYZ", "X Y", "0", "-"}) EXPECT_FALSE(stagger_from_text(bad)) << "'" << bad << "'";
  for (Stagger s : {Stagger::None, Stagger::X, Stagger::Y, Stagger::Z, Stagger::XY}) {
    EXPECT_EQ(stagger_from_text(to_string(s)), s);
  }
}

TEST(EnumText, ErrorsNameTheArgumentAndTheChoices) {
  try {
    (void)parse_memory_order("YXZ", "MemoryOrder");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
    EXPECT_EQ(std::string(e.what()), "MemoryOrder 'YXZ' is not one of 'XZY', 'XYZ', 'XY', 'Z', 'C', '0'");
  }
  try {
    (void)parse_stagger(std::string(100, 'Q'));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "stagger '" + std::string(40, 'Q') + "...' is not one of '', 'X', 'Y', 'Z', 'XY'");
  }
}

}  // namespace
}  // namespace nwpio::detail
