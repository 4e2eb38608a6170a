"""Answers an LLM gives `optiml synth`, for the scripted server's scripts (tests that import it)."""

import json


def relu_answer(name):
    """A ReLU kernel called `name` and its spec, as a synthesis answer: a cuda and a json block."""
    spec = {"kernel": name, "arguments": [
        {"name": "in", "type": "float32", "pointer": True, "count": "n", "role": "input",
         "fill": {"kind": "uniform", "min": -1, "max": 1, "seed": 1}},
        {"name": "out", "type": "float32", "pointer": True, "count": "n", "role": "output"},
        {"name": "n", "type": "int32", "value": 4096}],
        "launch": {"block": [128], "grid": ["ceil_div(n, 128)"]},
        "budget": {"evaluations": 2, "seconds": 60}}
    kernel = ('extern "C" __global__ void ' + name + '(const float* in, float* out, int n) {\n'
              '    int i = blockIdx.x * 128 + threadIdx.x;\n'
              '    if (i < n) out[i] = fmaxf(in[i], 0.0f);\n}\n')
    return "```cuda\n" + kernel + "```\n```json\n" + json.dumps(spec) + "\n```\n"
