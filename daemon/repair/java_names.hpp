#pragma once
// Class names as repair meets them: binary names ("pkg.Outer$Inner", what JDWP and test ids
// use) and internal names ("pkg/Outer$Inner", what class files use), and which classes are
// the project's. Pure.
#include <string>

namespace flakescan::repair {

std::string internal_name(std::string binary_name);   // '.' -> '/'
std::string binary_name(std::string internal_name);   // '/' -> '.'
std::string package_of(const std::string& binary_name);  // "" for the default package

// A binary name of a project class: not the JDK, the test frameworks or flakescan's runner,
// and not a hidden class (lambdas, whose names hold a '/').
bool is_project_class(const std::string& binary_name);

}  // namespace flakescan::repair
