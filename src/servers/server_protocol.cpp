#include "servers/server_protocol.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace nwpio::detail {

namespace {

using nlohmann::json;

std::string to_bytes(const json& j) {
  const std::vector<std::uint8_t> v = json::to_msgpack(j);
  return std::string(reinterpret_cast<const char*>(v.data()), v.size());
}

json from_bytes(std::string_view bytes, const char* what) {
  try {
    return json::from_msgpack(bytes.begin(), bytes.end());
  } catch (const json::exception& e) {
    throw Error(ErrorKind::Internal, std::string("I/O server protocol: a malformed ") + what + " message: " + e.what());
  }
}

// Free text (file names, messages) travels as bytes: exact whatever its encoding.
json bin(std::string_view text) { return json::binary(std::vector<std::uint8_t>(text.begin(), text.end())); }
std::string text_of(const json& j, const char* key) {
  const auto& b = j.at(key).get_binary();
  return std::string(b.begin(), b.end());
}

template <class T>
T get(const json& j, const char* key, const char* what) {
  try {
    return j.at(key).get<T>();
  } catch (const json::exception& e) {
    throw Error(ErrorKind::Internal, std::string("I/O server protocol: ") + what + " message without " + key + ": " + e.what());
  }
}

}  // namespace

std::string_view to_string(Command c) noexcept {
  switch (c) {
    case Command::Define: return "define";
    case Command::Frame: return "frame";
    case Command::Close: return "close";
    case Command::Stop: return "stop";
  }
  return "?";
}

std::string encode(const Control& c) {
  json j = {{"c", static_cast<int>(c.command)}, {"s", c.stream}, {"q", c.seq}};
  if (c.command == Command::Frame) {
    j["d"] = c.date;
    j["o"] = c.opens_file;
  }
  if (c.command == Command::Define) j["def"] = bin(c.definition);
  return to_bytes(j);
}

Control decode_control(std::string_view bytes) {
  const json j = from_bytes(bytes, "control");
  Control c;
  c.command = static_cast<Command>(get<int>(j, "c", "control"));
  c.stream = get<int>(j, "s", "control");
  c.seq = get<std::int64_t>(j, "q", "control");
  if (c.command == Command::Frame) {
    c.date = get<std::string>(j, "d", "control");
    c.opens_file = get<bool>(j, "o", "control");
  }
  if (c.command == Command::Define) c.definition = text_of(j, "def");
  return c;
}

std::string encode(const Ack& a) {
  json j = {{"c", static_cast<int>(a.command)}, {"s", a.stream},       {"q", a.seq},
            {"k", a.skipped},                  {"f", bin(a.file)},         {"tr", a.receive_seconds},
            {"tu", a.unpack_seconds},          {"tw", a.write_seconds}};
  if (a.error) {
    j["ek"] = static_cast<int>(a.error->kind());
    j["em"] = bin(a.error->what());
  }
  return to_bytes(j);
}

Ack decode_ack(std::string_view bytes) {
  const json j = from_bytes(bytes, "ack");
  Ack a;
  a.command = static_cast<Command>(get<int>(j, "c", "ack"));
  a.stream = get<int>(j, "s", "ack");
  a.seq = get<std::int64_t>(j, "q", "ack");
  a.skipped = get<bool>(j, "k", "ack");
  a.file = text_of(j, "f");
  a.receive_seconds = get<double>(j, "tr", "ack");
  a.unpack_seconds = get<double>(j, "tu", "ack");
  a.write_seconds = get<double>(j, "tw", "ack");
  if (j.contains("ek")) {
    a.error = Error(static_cast<ErrorKind>(get<int>(j, "ek", "ack")), text_of(j, "em"), true);
  }
  return a;
}

}  // namespace nwpio::detail
