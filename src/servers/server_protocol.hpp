// What compute ranks and I/O servers say to each other, on the "link" communicator of a server
// group (the compute ranks 0 .. C-1, then the group's servers C .. C+n-1):
//
//   control  compute rank 0 -> every server of the group, in program order:
//            Define (a stream: its schema, options and grid), Frame (stream, sequence number,
//            date, whether it opens a file), Close (stream), Stop (leave the service loop)
//   data     every compute rank -> every server of the group: a frame's pieces (HandoffPlan)
//   ack      server 0 of the group -> every compute rank: the outcome of each Define, Frame and
//            Close (the Error the servers agreed on, the file, the servers' times)
//
// Messages between two ranks on one communicator and tag never overtake each other, and every
// side handles frames in the order compute rank 0 sent the controls (the order of the
// collective calls), so data needs no frame number: a server posts its receives for a frame
// when the frame's control arrives, and they match that frame's messages.
// Control and ack bodies are MessagePack (nlohmann-json): self-describing, exact for any bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "nwpio/error.hpp"

namespace nwpio::detail {

inline constexpr int kTagControl = 7101;
inline constexpr int kTagAck = 7102;
inline constexpr int kTagData = 7103;

enum class Command : int { Define = 1, Frame = 2, Close = 3, Stop = 4 };

struct Control {
  Command command = Command::Stop;
  int stream = 0;
  std::int64_t seq = 0;        // Frame: the frame's number within the stream (0, 1, ...)
  std::string date;            // Frame
  bool opens_file = false;     // Frame: the first frame of a file (static variables come too)
  std::string definition;      // Define: StreamDefinition (stream_definition.hpp), encoded
};

// The servers' answer to one control (every compute rank gets it).
struct Ack {
  Command command = Command::Frame;
  int stream = 0;
  std::int64_t seq = 0;
  std::optional<Error> error;   // what the group's servers agreed on; empty: success
  bool skipped = false;         // Frame: not written, the stream had failed before
  std::string file;             // Frame: the file's final name
  double receive_seconds = 0;   // Frame: from the control to the last byte received (max over servers)
  double unpack_seconds = 0;    // Frame: copying the pieces into the band arrays
  double write_seconds = 0;     // Frame: the servers' Writer (begin_frame .. end_frame, close included)
};

std::string encode(const Control& c);
Control decode_control(std::string_view bytes);
std::string encode(const Ack& a);
Ack decode_ack(std::string_view bytes);

std::string_view to_string(Command c) noexcept;

}  // namespace nwpio::detail
