#pragma once
// The one way app code reaches OpenGL and GLFW: glad before GLFW, and GLFW
// told not to include a GL header of its own.
#define GLFW_INCLUDE_NONE
#include <glad/gl.h>
#include <GLFW/glfw3.h>
