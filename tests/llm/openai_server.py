#!/usr/bin/env python3
"""A scripted OpenAI-compatible chat-completions server on loopback, for OptiML's LLM tests.

    python3 openai_server.py --script SCRIPT.json --port-file FILE [--log REQUESTS.jsonl]

Binds 127.0.0.1 on a free port, writes the port to FILE once listening, and answers each
POST .../chat/completions, and each GET, HEAD and PUT of any path, with the next entry of the
script (README.md describes the format).
Standard library only, so it runs wherever python3 does.
"""

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def load_script(path):
    with open(path, encoding="utf-8") as file:
        script = json.load(file)
    responses = script.get("responses") if isinstance(script, dict) else None
    if not isinstance(responses, list) or not all(isinstance(r, dict) for r in responses):
        sys.exit(f"{path}: expected {{\"responses\": [{{...}}, ...]}} with an object per answer")
    for index, entry in enumerate(responses):
        if not any(k in entry for k in ("content", "status", "raw")):
            sys.exit(f"{path}: responses[{index}]: needs one of content, status, raw")
    return responses, bool(script.get("repeat_last", False))


def last_user_message(body):
    messages = body.get("messages") if isinstance(body, dict) else None
    for message in reversed(messages if isinstance(messages, list) else []):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else ""
    return ""


def rough_tokens(text):
    # Deterministic, roughly what a tokenizer gives for English and code.
    return len(text) // 4 + 1


class Script:
    """Answers in order; an entry with "match" only answers requests that contain it."""

    def __init__(self, responses, repeat_last):
        self.responses = responses
        self.repeat_last = repeat_last
        self.used = [False] * len(responses)
        self.lock = threading.Lock()

    def next_for(self, body):
        text = last_user_message(body)
        with self.lock:
            eligible = [i for i, r in enumerate(self.responses)
                        if "match" not in r or r["match"] in text]
            for i in eligible:
                if not self.used[i]:
                    self.used[i] = True
                    return self.responses[i]
            if self.repeat_last and eligible:
                return self.responses[eligible[-1]]
            return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # quiet: the JSON log is the record
        pass

    def record(self, body):
        if self.server.log_path is None:
            return
        headers = {k: v for k, v in self.headers.items() if k.lower() != "authorization"}
        authorization = self.headers.get("Authorization")
        line = {"method": self.command, "path": self.path, "headers": headers,
                "authorization_present": authorization is not None,
                "authorization_scheme": authorization.split(" ")[0] if authorization else None,
                "client_port": self.client_address[1], "body": body}
        with self.server.log_lock, open(self.server.log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps(line) + "\n")

    def send(self, status, payload, headers=None):
        data = payload if isinstance(payload, bytes) else payload.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, str(value))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode("utf-8", errors="replace")
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return raw

    def do_POST(self):
        body = self.read_body()
        self.record(body)
        if not self.path.endswith("/chat/completions"):
            self.send(404, json.dumps({"error": {"message": f"no route {self.path}"}}))
            return
        self.answer_next(body)

    # Other methods, for the HTTP client's own tests: any path, answered from the script too.
    def do_GET(self):
        body = self.read_body()
        self.record(body)
        self.answer_next(body)

    do_HEAD = do_GET
    do_PUT = do_GET

    def answer_next(self, body):
        entry = self.server.script.next_for(body)
        if entry is None:
            self.send(400, json.dumps({"error": {"message": "openai_server: script exhausted"}}))
            return
        try:
            time.sleep(float(entry.get("delay_s", 0)))
            self.answer(entry, body if isinstance(body, dict) else {})
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up first (a timeout test)

    def answer(self, entry, body):
        if "raw" in entry:
            self.send(int(entry.get("status", 200)), str(entry["raw"]), entry.get("headers"))
            return
        if "content" not in entry:
            payload = entry.get("body", {"error": {"message": f"scripted {entry['status']}"}})
            text = payload if isinstance(payload, str) else json.dumps(payload)
            self.send(int(entry["status"]), text, entry.get("headers"))
            return
        prompt = "".join(m.get("content", "") for m in body.get("messages", [])
                         if isinstance(m, dict) and isinstance(m.get("content"), str))
        usage = dict(entry.get("usage", {"prompt_tokens": rough_tokens(prompt),
                                         "completion_tokens": rough_tokens(entry["content"])}))
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        self.server.completions += 1
        reply = {
            "id": f"chatcmpl-{self.server.completions}",
            "object": "chat.completion",
            "created": 0,
            "model": entry.get("model", body.get("model", "scripted")),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": entry["content"]}}],
            "usage": usage,
        }
        self.send(int(entry.get("status", 200)), json.dumps(reply), entry.get("headers"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--script", required=True, help="JSON file of scripted answers")
    parser.add_argument("--port-file", required=True, help="written with the port once listening")
    parser.add_argument("--log", help="append one JSON line per request here")
    args = parser.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True  # a stalled answer never keeps the process alive
    server.script = Script(*load_script(args.script))
    server.log_path = args.log
    server.log_lock = threading.Lock()
    server.completions = 0
    # Written whole and renamed, so a reader never sees half a number.
    partial = args.port_file + ".partial"
    with open(partial, "w", encoding="utf-8") as file:
        file.write(str(server.server_address[1]))
    os.replace(partial, args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
