#version 330 core
// Shadow pass: the depth attachment is all we need.
void main() {}
