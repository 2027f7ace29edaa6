#!/usr/bin/env python3
"""A small Language Server Protocol client for tests: starts a server, plays steps, prints
what comes back in a stable text form for FileCheck.

    lsp_client.py [--init-options JSON] SERVER ARGS... -- STEP...

Steps (PATH is a file; positions are 1-based lines and UTF-16 columns):
    open PATH                      didOpen with PATH's text on disk
    replace PATH LINE OLD NEW      didChange: the first OLD on LINE becomes NEW (an
                                   incremental edit with a range)
    replace-all PATH FILE          didChange: the whole buffer becomes FILE's text
    save PATH                      didSave
    close PATH                     didClose
    wait PATH                      waits for PATH's next publishDiagnostics and prints it
    actions PATH LINE              asks for the code actions on LINE and prints them
    apply PATH LINE INDEX          applies code action INDEX of LINE to the buffer (a
                                   didChange) and prints the line
    request METHOD                 sends a request with no parameters and prints the reply

Then `shutdown` and `exit` are sent and the server's exit status printed.
"""
import json
import os
import queue
import subprocess
import sys
import threading

TIMEOUT = 120


def uri_of(path):
    from urllib.parse import quote
    return "file://" + quote(os.path.abspath(path))


class Client:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.messages = queue.Queue()
        self.next_id = 1
        self.versions = {}
        self.texts = {}
        self.last_diagnostics = {}
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(out.read(length)))

    def send(self, message):
        message["jsonrpc"] = "2.0"
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def receive(self, accept):
        """The next message `accept` takes; answers the server's own requests meanwhile."""
        while True:
            try:
                message = self.messages.get(timeout=TIMEOUT)
            except queue.Empty:
                sys.exit("lsp_client: no answer from the server in %d s" % TIMEOUT)
            if message is None:
                sys.exit("lsp_client: the server closed its output")
            if "method" in message and "id" in message:
                self.send({"id": message["id"], "result": None})
                continue
            if accept(message):
                return message

    def request(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        self.send({"id": request_id, "method": method, "params": params})
        return self.receive(lambda m: m.get("id") == request_id and "method" not in m)

    def change(self, path, changes):
        self.versions[path] += 1
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri_of(path), "version": self.versions[path]},
            "contentChanges": changes})


def offset_to_position(text, offset):
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return {"line": line, "character": len(text[start:offset].encode("utf-16-le")) // 2}


def position_to_offset(text, position):
    lines = text.split("\n")
    start = sum(len(l) + 1 for l in lines[:position["line"]])
    line = lines[position["line"]] if position["line"] < len(lines) else ""
    units, at = 0, 0
    while at < len(line) and units < position["character"]:
        units += 2 if ord(line[at]) > 0xFFFF else 1
        at += 1
    return start + at


def show_position(p):
    return "%d:%d" % (p["line"] + 1, p["character"] + 1)


def show_range(r):
    return show_position(r["start"]) + "-" + show_position(r["end"])


def print_diagnostics(path, params):
    diagnostics = params["diagnostics"]
    version = params.get("version")
    print("diagnostics %s version=%s count=%d" % (os.path.basename(path), version,
                                                   len(diagnostics)))
    severity = {1: "error", 2: "warning", 3: "information", 4: "hint"}
    for d in diagnostics:
        print("  %s %s %s: %s" % (show_range(d["range"]), severity.get(d.get("severity"), "?"),
                                 d.get("code", "-"), d["message"]))
        if "codeDescription" in d:
            print("    href %s" % d["codeDescription"]["href"])
        for info in d.get("relatedInformation", []):
            where = info["location"]
            print("    related %s %s: %s" % (os.path.basename(where["uri"]),
                                            show_range(where["range"]), info["message"]))


def main(argv):
    init_options = None
    if argv and argv[0] == "--init-options":
        init_options = json.loads(argv[1])
        argv = argv[2:]
    split = argv.index("--")
    client = Client(argv[:split])
    steps = argv[split + 1:]
    params = {"processId": os.getpid(), "rootUri": None, "capabilities": {}}
    if init_options is not None:
        params["initializationOptions"] = init_options
    reply = client.request("initialize", params)
    print("initialize", "ok" if "result" in reply else reply)
    client.notify("initialized", {})
    sys.stdout.flush()

    i = 0
    while i < len(steps):
        step, path = steps[i], steps[i + 1] if i + 1 < len(steps) else None
        if step == "open":
            text = open(path, encoding="utf-8").read()
            client.versions[path] = 1
            client.texts[path] = text
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri_of(path), "languageId": "cpp", "version": 1, "text": text}})
            i += 2
        elif step == "replace":
            line, old, new = int(steps[i + 2]), steps[i + 3], steps[i + 4]
            text = client.texts[path]
            line_start = position_to_offset(text, {"line": line - 1, "character": 0})
            at = text.index(old, line_start)
            if text.count("\n", line_start, at):
                sys.exit("lsp_client: no '%s' on line %d" % (old, line))
            client.change(path, [{"range": {"start": offset_to_position(text, at),
                                            "end": offset_to_position(text, at + len(old))},
                                  "text": new}])
            client.texts[path] = text[:at] + new + text[at + len(old):]
            i += 5
        elif step == "replace-all":
            text = open(steps[i + 2], encoding="utf-8").read()
            client.change(path, [{"text": text}])
            client.texts[path] = text
            i += 3
        elif step == "save":
            client.notify("textDocument/didSave", {"textDocument": {"uri": uri_of(path)}})
            i += 2
        elif step == "close":
            client.notify("textDocument/didClose", {"textDocument": {"uri": uri_of(path)}})
            i += 2
        elif step == "wait":
            uri = uri_of(path)
            message = client.receive(lambda m: m.get("method") ==
                                     "textDocument/publishDiagnostics" and
                                     m["params"]["uri"] == uri)
            client.last_diagnostics[path] = message["params"]["diagnostics"]
            print_diagnostics(path, message["params"])
            i += 2
        elif step in ("actions", "apply"):
            line = int(steps[i + 2]) - 1
            line_range = {"start": {"line": line, "character": 0},
                          "end": {"line": line, "character": 10000}}
            in_line = [d for d in client.last_diagnostics.get(path, [])
                       if d["range"]["start"]["line"] <= line <= d["range"]["end"]["line"]]
            reply = client.request("textDocument/codeAction", {
                "textDocument": {"uri": uri_of(path)}, "range": line_range,
                "context": {"diagnostics": in_line}})
            actions = reply.get("result") or []
            if step == "actions":
                print("actions %s:%d count=%d" % (os.path.basename(path), line + 1, len(actions)))
                for a in actions:
                    print("  %s [%s%s]" % (a["title"], a.get("kind", "-"),
                                          ", preferred" if a.get("isPreferred") else ""))
                    for edits in a.get("edit", {}).get("changes", {}).values():
                        for e in edits:
                            print("    %s %s" % (show_range(e["range"]), json.dumps(e["newText"])))
                i += 3
            else:
                action = actions[int(steps[i + 3])]
                text = client.texts[path]
                edits = action["edit"]["changes"][uri_of(path)]
                changes = []
                for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"],
                                                      e["range"]["start"]["character"]),
                                reverse=True):
                    a = position_to_offset(text, e["range"]["start"])
                    b = position_to_offset(text, e["range"]["end"])
                    text = text[:a] + e["newText"] + text[b:]
                    changes.append({"range": e["range"], "text": e["newText"]})
                client.change(path, changes)
                client.texts[path] = text
                print("applied %s: %s" % (action["title"], text.split("\n")[line].strip()))
                i += 4
        elif step == "request":
            reply = client.request(path, None)
            print("reply %s: %s" % (path, json.dumps(reply.get("result", reply.get("error")),
                                                    sort_keys=True)))
            i += 2
        else:
            sys.exit("lsp_client: unknown step '%s'" % step)
        sys.stdout.flush()

    client.request("shutdown", None)
    client.notify("exit", None)
    client.proc.stdin.close()
    print("exit", client.proc.wait(timeout=TIMEOUT))


if __name__ == "__main__":
    main(sys.argv[1:])
