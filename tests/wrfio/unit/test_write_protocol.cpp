// WriteStream's frame detection (WriteProtocol) without MPI: training, commit, a frame begun by
// the first call after the previous one at its DateStr, the same DateStr writing into the same
// record, the frame's end after as many calls as variables, dates that do not fit, ioclose,
// iosync, a failed file, and I/O servers.
#include <gtest/gtest.h>

#include <string>

#include "wrfio/wrf_status.hpp"
#include "wrfio/write_protocol.hpp"

namespace nwpio::wrfio {
namespace {

using Phase = WriteProtocol::Phase;

const char* const kD1 = "2001-01-01_00:00:00";
const char* const kD2 = "2001-01-01_00:05:00";

int status_of(void (*call)(WriteProtocol&), WriteProtocol& p, bool* quiet = nullptr) {
  try {
    call(p);
  } catch (const WrfError& e) {
    if (quiet) *quiet = e.quiet();
    return e.wrf_status();
  }
  return wrf_status::kNoErr;
}

TEST(WriteProtocol, TrainingDefinesAndTheCommitEndsIt) {
  WriteProtocol p;
  EXPECT_EQ(p.phase(), Phase::Training);
  const WriteProtocol::Steps s = p.field(kD1);
  EXPECT_TRUE(s.define);
  EXPECT_FALSE(s.begin || s.end_after || s.end_before);
  EXPECT_FALSE(p.frame_open());
  p.commit(3, false);
  EXPECT_EQ(p.phase(), Phase::Frames);
  EXPECT_EQ(status_of([](WriteProtocol& q) { q.commit(3, false); }, p), wrf_status::kBadFileStatus);
}

TEST(WriteProtocol, FramesBeginAtANewDateStrAndEndWithTheLastVariable) {
  WriteProtocol p;
  p.commit(3, false);
  for (const char* date : {kD1, kD2}) {
    // The first call begins a frame at its DateStr; the same DateStr writes into that record.
    WriteProtocol::Steps s = p.field(date);
    EXPECT_TRUE(s.begin);
    EXPECT_FALSE(s.define || s.end_after);
    EXPECT_EQ(p.frame_date(), date);
    s = p.field(date);
    EXPECT_FALSE(s.begin || s.end_after);
    EXPECT_TRUE(s.problem.empty());
    s = p.field(date);  // the third of three variables ends it
    EXPECT_FALSE(s.begin);
    EXPECT_TRUE(s.end_after);
    EXPECT_TRUE(s.problem.empty());
    EXPECT_FALSE(p.frame_open());
  }
  EXPECT_FALSE(p.close());  // nothing open
}

// A DateStr that does not fit (wrong on one rank, or a frame WRF left incomplete) is an error of
// the open frame, never a boundary: every rank ends the frame at the same call.
TEST(WriteProtocol, AnotherDateStrInAFrameIsAProblemNotABoundary) {
  WriteProtocol p;
  p.commit(2, false);
  EXPECT_TRUE(p.field(kD1).begin);
  const WriteProtocol::Steps s = p.field("2001-13-01_00:00:00");
  EXPECT_FALSE(s.begin || s.end_before);
  EXPECT_TRUE(s.end_after);
  EXPECT_NE(s.problem.find("is not the open frame's '" + std::string(kD1) + "'"), std::string::npos) << s.problem;
  EXPECT_NE(s.problem.find("1 of its 2 variables"), std::string::npos) << s.problem;
  EXPECT_TRUE(p.field(kD2).begin);  // the next call begins the next frame
}

TEST(WriteProtocol, IocloseEndsAnOpenFrameAndIsRefusedInTraining) {
  WriteProtocol training;
  EXPECT_EQ(status_of([](WriteProtocol& q) { (void)q.close(); }, training), wrf_status::kDryRunClose);
  WriteProtocol p;
  p.commit(4, false);
  (void)p.field(kD1);
  (void)p.field(kD1);
  EXPECT_TRUE(p.close());  // the open frame is ended (its missing variables named by the Writer)
  EXPECT_FALSE(p.frame_open());
  EXPECT_FALSE(p.close());
}

TEST(WriteProtocol, IosyncBeforeTheCommitIsWrfFileNotCommitted) {
  WriteProtocol p;
  EXPECT_EQ(status_of([](WriteProtocol& q) { (void)q.sync(); }, p), wrf_status::kFileNotCommitted);
  p.commit(1, false);
  (void)p.field(kD1);
  EXPECT_FALSE(p.sync());  // compute ranks: nothing to do (WRF does not call it for io_form 11)
}

TEST(WriteProtocol, AFailedFileAnswersEveryCallQuietly) {
  WriteProtocol p;
  p.commit(2, false);
  (void)p.field(kD1);
  p.fail("open_for_write_commit: broken");
  EXPECT_EQ(p.phase(), Phase::Failed);
  EXPECT_FALSE(p.frame_open());
  bool quiet = false;
  EXPECT_EQ(status_of([](WriteProtocol& q) { (void)q.field(kD2); }, p, &quiet), wrf_status::kBadFileStatus);
  EXPECT_TRUE(quiet);
  EXPECT_EQ(status_of([](WriteProtocol& q) { (void)q.sync(); }, p), wrf_status::kBadFileStatus);
  EXPECT_FALSE(p.close());  // the Writer is still closed by the caller, on every rank
  p.fail("a second reason");  // the first is kept
  try {
    (void)p.field(kD2);
  } catch (const WrfError& e) {
    EXPECT_NE(std::string(e.what()).find("broken"), std::string::npos) << e.what();
  }
}

// I/O servers receive pieces: a frame ends at iosync, or when a new DateStr arrives, or at ioclose.
TEST(WriteProtocol, IoServersEndFramesAtIosyncOrANewDateStr) {
  WriteProtocol p;
  p.commit(2, true);
  EXPECT_TRUE(p.field(kD1).begin);
  for (int piece = 0; piece < 5; ++piece) {  // more pieces than variables: no end by count
    const WriteProtocol::Steps s = p.field(kD1);
    EXPECT_FALSE(s.begin || s.end_after || s.end_before);
  }
  EXPECT_TRUE(p.sync());
  EXPECT_FALSE(p.sync());
  EXPECT_TRUE(p.field(kD1).begin);
  const WriteProtocol::Steps s = p.field(kD2);
  EXPECT_TRUE(s.end_before);
  EXPECT_TRUE(s.begin);
  EXPECT_EQ(p.frame_date(), kD2);
  EXPECT_TRUE(p.close());
}

}  // namespace
}  // namespace nwpio::wrfio
