// ReLU: out[i] = max(in[i], 0).
void relu_reference(const float* in, float* out, int n) {
    for (int i = 0; i < n; ++i) out[i] = in[i] > 0.0f ? in[i] : 0.0f;
}
