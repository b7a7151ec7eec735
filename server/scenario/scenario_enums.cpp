#include "scenario/scenario_enums.h"

#include <google/protobuf/descriptor.h>

#include <utility>

namespace steerd {

namespace {

namespace gp = google::protobuf;

std::string knownValues(const gp::EnumDescriptor& e) {
  std::string names;
  for (int i = 0; i < e.value_count(); ++i) names += (i == 0 ? "" : ", ") + e.value(i)->name();
  return names;
}

class EnumWalk {
 public:
  EnumWalk(const std::string& file, std::vector<std::string>& errors) : file_(file), errors_(errors) {}

  void walk(const gp::Message& m, const std::string& path, const gp::TextFormat::ParseInfoTree* where) {
    const gp::Reflection& r = *m.GetReflection();
    std::vector<const gp::FieldDescriptor*> fields;
    r.ListFields(m, &fields);
    for (const gp::FieldDescriptor* f : fields) {
      const std::string name = path.empty() ? f->name() : path + "." + f->name();
      const int count = f->is_repeated() ? r.FieldSize(m, f) : 1;
      for (int i = 0; i < count; ++i) {
        const int index = f->is_repeated() ? i : -1;
        const std::string at = f->is_repeated() ? name + "[" + std::to_string(i) + "]" : name;
        if (f->type() == gp::FieldDescriptor::TYPE_ENUM) {
          const int number = f->is_repeated() ? r.GetRepeatedEnumValue(m, f, i) : r.GetEnumValue(m, f);
          if (f->enum_type()->FindValueByNumber(number) == nullptr) report(*f, number, at, where, index);
        } else if (f->type() == gp::FieldDescriptor::TYPE_MESSAGE) {
          const gp::Message& nested = f->is_repeated() ? r.GetRepeatedMessage(m, f, i) : r.GetMessage(m, f);
          walk(nested, at, where != nullptr ? where->GetTreeForNested(f, index) : nullptr);
        }
      }
    }
  }

  int found() const { return found_; }

 private:
  void report(const gp::FieldDescriptor& f, int number, const std::string& at,
              const gp::TextFormat::ParseInfoTree* where, int index) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, wrongly) on a long chain of string `+`.
    std::string error = file_;
    if (where != nullptr) {
      const gp::TextFormat::ParseLocation loc = where->GetLocation(&f, index);
      if (loc.line >= 0) {
        error.append(":").append(std::to_string(loc.line + 1));
        error.append(":").append(std::to_string(loc.column + 1));
      }
    }
    const gp::EnumDescriptor& e = *f.enum_type();
    error.append(": ").append(at).append(": ").append(std::to_string(number));
    error.append(" is no ").append(e.name()).append(" (one of ").append(knownValues(e)).append(")");
    errors_.push_back(std::move(error));
    ++found_;
  }

  const std::string& file_;
  std::vector<std::string>& errors_;
  int found_ = 0;
};

}  // namespace

int checkEnumValues(const gp::Message& message, const std::string& file,
                    const gp::TextFormat::ParseInfoTree* where, std::vector<std::string>& errors) {
  EnumWalk walk(file, errors);
  walk.walk(message, "", where);
  return walk.found();
}

}  // namespace steerd
