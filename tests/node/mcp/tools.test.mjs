// Every pyinspect tool called through the TypeScript MCP SDK (the client most agent hosts
// use), over stdio and over streamable HTTP: one success and one error each. The SDK's
// Client.callTool validates any structuredContent against the tool's declared
// outputSchema and throws when it does not match, so a call that returns at all proves
// the answer is readable; errors must also carry their envelope as JSON text.
//
// Run by tests/node_clients/test_mcp_clients.py, which passes the plan as
// PYINSPECT_MCP_PLAN (JSON: pyinspect executable, debuggee, source file and line).
// The HTTP server is started with a bearer token of this test's own (PYINSPECT_HTTP_TOKEN),
// which the client sends as `Authorization: Bearer`, as every HTTP client must.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { randomBytes } from 'node:crypto';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const plan = JSON.parse(process.env.PYINSPECT_MCP_PLAN ?? '{}');
const token = process.env.PYINSPECT_MCP_TOKEN ?? randomBytes(24).toString('hex');
const CODES = new Set(plan.codes ?? []);

function envelope(result, tool) {
  assert.equal(result.isError, true, `${tool}: expected an error, got ${JSON.stringify(result)}`);
  assert.equal(result.structuredContent, undefined, `${tool}: an error must carry no structured content`);
  const answer = JSON.parse(result.content[0].text);
  const code = answer.error === true ? answer.code : answer.error?.code;
  assert.ok(answer.error === true || answer.success === false, `${tool}: not an envelope: ${result.content[0].text}`);
  assert.ok(CODES.has(code), `${tool}: code ${code} is not in docs/mcp.md's error table`);
  assert.ok((answer.message ?? answer.error.message).length > 0, `${tool}: empty message`);
  return code;
}

class Caller {
  constructor(client) { this.client = client; this.ok = new Set(); this.failed = new Set(); }

  async success(tool, args = {}) {
    const result = await this.client.callTool({ name: tool, arguments: args });
    assert.ok(!result.isError, `${tool} failed: ${result.content?.[0]?.text}`);
    assert.ok(result.structuredContent, `${tool}: no structured content`);
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent, `${tool}: text != structured`);
    this.ok.add(tool);
    return result.structuredContent;
  }

  async error(tool, args, expected) {
    const result = await this.client.callTool({ name: tool, arguments: args });
    const code = envelope(result, tool);
    if (expected) assert.equal(code, expected, `${tool}(${JSON.stringify(args)})`);
    this.failed.add(tool);
    return code;
  }
}

async function story(client, name) {
  const args = [`${plan.truth_dir}/truth-${name}.json`];
  const c = new Caller(client);
  const { tools } = await client.listTools();
  for (const tool of tools) {
    assert.ok(tool.outputSchema, `${tool.name} declares no output schema`);
    assert.ok((tool.description ?? '').length > 60, `${tool.name}: description too short for first use`);
  }
  // no session yet
  await c.success('debug_state');
  for (const tool of ['threads_list', 'stacktrace_get', 'variables_get', 'debug_wait', 'debug_continue',
    'debug_pause', 'debug_step', 'debug_disconnect']) await c.error(tool, {}, 'NO_SESSION');
  await c.error('evaluate', { expression: 'nope' }, 'NO_SESSION');
  await c.error('object_inspect', { object_ref: 'customer' }, 'NO_SESSION');
  await c.error('object_summarize', { expression: 'customer' }, 'NO_SESSION');
  await c.error('exception_get', {}, 'NO_SESSION');
  await c.error('process_output', {}, 'NO_SESSION');
  for (const tool of ['heap_stats', 'heap_retained', 'heap_strings', 'heap_segments', 'heap_finalizer_queue',
    'heap_snapshot']) await c.error(tool, {}, 'NO_HEAP');
  await c.error('heap_instances', { type_name: 'System.String' }, 'NO_HEAP');
  await c.error('heap_retention', { address: '0x1000' }, 'NO_HEAP');
  await c.error('heap_diff', {}, 'UNKNOWN_SNAPSHOT');
  await c.error('heap_close', {}, 'INVALID_PARAMETER');
  await c.error('heap_attach', { pid: 999999999 }, 'PROCESS_NOT_FOUND');
  await c.error('dump_open', { path: plan.source }, 'DUMP_ERROR');
  await c.error('dump_create', { path: `${plan.truth_dir}/never-${name}.dmp` }, 'INVALID_PARAMETER');
  await c.error('debug_launch', { program: '/no/such/program.dll' }, 'INVALID_PARAMETER');
  await c.error('debug_attach', { pid: 999999999 }, 'PROCESS_NOT_FOUND');
  await c.error('breakpoint_set', { file: plan.source, line: 0 }, 'INVALID_PARAMETER');
  await c.error('breakpoint_remove', { id: 99999 }, 'UNKNOWN_BREAKPOINT');
  await c.error('breakpoint_list', { start: -1 }, 'INVALID_PARAMETER');
  await c.error('breakpoint_set_exception', { filter: 'sometimes' }, 'INVALID_PARAMETER');
  const spare = await c.success('breakpoint_set', { file: plan.source, line: plan.line + 1 });
  await c.success('breakpoint_remove', { id: spare.breakpoint.id });
  await c.success('breakpoint_set', { file: plan.source, line: plan.line });
  await c.success('breakpoint_list');
  await c.success('breakpoint_set_exception', { filter: 'user_unhandled' });

  // paused at the breakpoint
  await c.success('debug_launch', { program: plan.program, args });
  const stop = await c.success('debug_wait', { timeout_ms: 60000 });
  assert.equal(stop.state, 'paused', JSON.stringify(stop));
  await c.success('debug_pause');
  await c.success('threads_list');
  await c.success('stacktrace_get');
  await c.error('stacktrace_get', { max_frames: 0 }, 'INVALID_PARAMETER');
  const frame = await c.success('variables_get');
  assert.ok(frame.variables.some((v) => v.name === plan.collection), `stopped at ${JSON.stringify(stop)}: ${JSON.stringify(frame)}`);
  await c.success('variables_get', { expand: plan.collection, start: 0, count: 3 });
  await c.error('variables_get', { expand: 'nosuch.field' }, 'VARIABLE_UNAVAILABLE');
  await c.success('evaluate', { expression: plan.collection + '.Count' });
  await c.error('evaluate', { expression: 'nope' }, 'EVAL_EXCEPTION');
  await c.success('object_inspect', { object_ref: plan.object });
  await c.error('object_inspect', { object_ref: plan.object, depth: 11 }, 'DEPTH_EXCEEDED');
  await c.success('object_summarize', { expression: plan.object });
  await c.error('object_summarize', { expression: 'nothing_here' }, 'VARIABLE_UNAVAILABLE');
  await c.success('collection_analyze', { expression: plan.collection });
  await c.error('collection_analyze', { expression: plan.object }, 'NOT_COLLECTION');
  await c.error('exception_get', {}, 'NO_EXCEPTION');
  // the paused debuggee's heap
  const stats = await c.success('heap_stats', { filter: 'live', top: 5 });
  assert.equal(stats.source.kind, 'debug_session', JSON.stringify(stats.source));
  const strings = await c.success('heap_instances', { type_name: 'System.String', count: 2 });
  await c.error('heap_instances', { type_name: 'No.Such.Type' }, 'UNKNOWN_TYPE');
  await c.success('heap_retention', { address: strings.instances[0].address });
  await c.success('heap_retention', { expression: plan.object });
  await c.error('heap_retention', { address: '0x10' }, 'NOT_AN_OBJECT');
  await c.success('heap_object', { address: strings.instances[0].address });
  await c.error('heap_object', { address: '0x10' }, 'NOT_AN_OBJECT');
  await c.success('heap_retained', { top: 3 });
  await c.error('heap_retained', { addresses: ['0x10'] }, 'NOT_AN_OBJECT');
  await c.success('heap_strings', { top: 3 });
  await c.success('heap_segments');
  await c.success('heap_finalizer_queue');
  await c.error('heap_finalizer_queue', { top: 0 }, 'INVALID_PARAMETER');
  await c.success('heap_snapshot');
  await c.success('heap_snapshot');
  await c.success('heap_diff');
  await c.error('heap_diff', { before: 's99' }, 'UNKNOWN_SNAPSHOT');
  await c.success('process_output');
  await c.error('process_output', { cursor: -1 }, 'INVALID_PARAMETER');
  await c.error('debug_step', { mode: 'sideways' }, 'INVALID_PARAMETER');
  await c.success('debug_step', { mode: 'over' });
  await c.error('debug_continue', { timeout_ms: -5 }, 'INVALID_PARAMETER');
  await c.error('debug_attach', { pid: -3 }, 'PROCESS_NOT_FOUND');
  await c.success('debug_continue', { wait: false });
  await c.success('debug_disconnect');
  await c.error('debug_disconnect', {}, 'NO_SESSION');

  // the truth file exists now: the program's File.Copy throws, unhandled
  await c.success('debug_launch', { program: plan.program, args });
  const thrown = await c.success('debug_wait', { timeout_ms: 60000 });
  assert.equal(thrown.stop_reason, 'exception', JSON.stringify(thrown));
  const { exception } = await c.success('exception_get');
  assert.equal(exception.type, 'System.IO.IOException', JSON.stringify(exception));
  assert.ok(exception.frames.some((f) => f.file === plan.source && f.line > 0), JSON.stringify(exception.frames));
  const printed = await c.success('process_output');
  assert.ok(printed.total >= 0 && printed.available === true, JSON.stringify(printed));
  await c.success('debug_disconnect');

  // attached: the program's output cannot be had, and says so
  await c.success('breakpoint_set_exception', { filter: 'user_unhandled', clear: true });
  await c.success('debug_attach', { pid: plan.attach_pid });
  const output = await c.success('process_output');
  assert.equal(output.available, false, JSON.stringify(output));
  await c.success('debug_disconnect');

  // a running process's heap without a debugger, and a dump of it
  const attached = await c.success('heap_attach', { pid: plan.attach_pid });
  assert.equal(attached.source.mayHaveChanged, true, JSON.stringify(attached));
  const dump = await c.success('dump_create', { path: `${plan.truth_dir}/loop-${name}.dmp` });
  await c.success('dump_open', { path: dump.path });
  await c.success('heap_stats', { filter: 'all', top: 3 });
  await c.success('heap_close');

  // a tool this test does not know yet (another issue's) still gives readable answers
  for (const tool of tools.filter((t) => !c.ok.has(t.name) && !c.failed.has(t.name))) {
    const result = await client.callTool({ name: tool.name, arguments: {} });
    if (result.isError) envelope(result, tool.name); else assert.ok(result.structuredContent, tool.name);
    c.ok.add(tool.name);
  }
  for (const tool of tools) {
    assert.ok(c.ok.has(tool.name), `${tool.name}: no success answer checked`);
  }
  return c;
}

test('every tool through the SDK over stdio', { timeout: 240000 }, async () => {
  const transport = new StdioClientTransport({ command: plan.pyinspect, args: ['serve'], stderr: 'inherit' });
  const client = new Client({ name: 'pyinspect-node-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const c = await story(client, 'stdio');
    assert.ok(c.failed.size >= 15, `only ${c.failed.size} tools checked for errors`);
  } finally {
    await client.close();
  }
});

// A start after the first answers the handshake and the tool list from the replies the
// SDK gave before (pyinspect.server.stdio_front); this client must see the same server.
test('a second start over stdio answers the handshake as the first did', { timeout: 120000 }, async () => {
  const cacheHome = fs.mkdtempSync(path.join(os.tmpdir(), 'pyinspect-replies-'));
  const start = async () => {
    const transport = new StdioClientTransport({ command: plan.pyinspect, args: ['serve'], stderr: 'inherit',
      env: { ...process.env, XDG_CACHE_HOME: cacheHome } });
    const client = new Client({ name: 'pyinspect-node-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const state = await client.callTool({ name: 'debug_state', arguments: {} });
      return { version: client.getServerVersion(), capabilities: client.getServerCapabilities(),
        instructions: client.getInstructions(), tools, state: state.structuredContent };
    } finally {
      await client.close();
    }
  };
  try {
    const first = await start();
    const stored = fs.readdirSync(path.join(cacheHome, 'pyinspect')).filter((name) => name.endsWith('.json'));
    assert.equal(stored.length, 1, `the first start stored no replies: ${stored}`);
    const second = await start();
    assert.deepEqual(second, first);
    assert.ok(first.tools.length > 30 && first.state.state === 'not_started', JSON.stringify(first.state));
  } finally {
    fs.rmSync(cacheHome, { recursive: true, force: true });
  }
});

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => { const { port } = server.address(); server.close(() => resolve(port)); });
    server.on('error', reject);
  });
}

async function waitForPort(port, child, ms = 30000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`pyinspect serve --http exited with ${child.exitCode}`);
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => { socket.end(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`pyinspect serve --http did not listen on ${port} within ${ms} ms`);
}

test('every tool through the SDK over streamable HTTP', { timeout: 240000 }, async () => {
  const port = await freePort();
  const child = spawn(plan.pyinspect, ['serve', '--http', '--port', String(port)], {
    stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, PYINSPECT_HTTP_TOKEN: token },
  });
  try {
    await waitForPort(port, child);
    const headers = { Authorization: `Bearer ${token}` };
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers } });
    const client = new Client({ name: 'pyinspect-node-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      await story(client, 'http');
    } finally {
      await client.close();
    }
  } finally {
    child.kill('SIGTERM');
  }
});
