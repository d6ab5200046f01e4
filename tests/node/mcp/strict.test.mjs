// pyinspect serve through the TypeScript MCP SDK: one start path (a fresh and a
// read-only XDG_CACHE_HOME stay empty: nothing is stored between starts), strict tool
// parameters for every tool the server lists (an unknown argument answers
// INVALID_PARAMETER naming it and the closest parameter) and the protocol's -32602 for
// an unknown tool. Run by tests/node_clients/test_mcp_clients.py (PYINSPECT_MCP_PLAN).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

const plan = JSON.parse(process.env.PYINSPECT_MCP_PLAN ?? '{}');

async function connected(env = {}) {
  const transport = new StdioClientTransport({ command: plan.pyinspect, args: ['serve'], stderr: 'inherit',
    env: { ...process.env, ...env } });
  const client = new Client({ name: 'pyinspect-strict-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

// Unwritable even for root, which ignores the mode: the immutable attribute too.
function setReadOnly(folder, readOnly) {
  const root = process.getuid?.() === 0;
  if (root && !readOnly) assert.equal(spawnSync('chattr', ['-i', folder]).status, 0);
  fs.chmodSync(folder, readOnly ? 0o500 : 0o700);
  if (root && readOnly) assert.equal(spawnSync('chattr', ['+i', folder]).status, 0);
}

for (const readOnly of [false, true]) {
  test(`a ${readOnly ? 'read-only' : 'fresh'} XDG_CACHE_HOME stays empty`, { timeout: 120000 }, async () => {
    const cacheHome = fs.mkdtempSync(path.join(os.tmpdir(), 'pyinspect-cache-'));
    try {
      if (readOnly) {
        setReadOnly(cacheHome, true);
        assert.throws(() => fs.writeFileSync(path.join(cacheHome, 'probe'), ''));
      }
      const client = await connected({ XDG_CACHE_HOME: cacheHome });
      try {
        const { tools } = await client.listTools();
        const state = await client.callTool({ name: 'debug_state', arguments: {} });
        assert.ok(tools.length > 30 && state.structuredContent.state === 'not_started', JSON.stringify(state));
        assert.equal(client.getServerVersion().name, 'pyinspect');
      } finally {
        await client.close();
      }
      assert.deepEqual(fs.readdirSync(cacheHome, { recursive: true }), []);
    } finally {
      if (readOnly) setReadOnly(cacheHome, false);
      fs.rmSync(cacheHome, { recursive: true, force: true });
    }
  });
}

// A known parameter with its last letter dropped (the hint must name it), else a made-up name.
function misspelt(tool) {
  const known = Object.keys(tool.inputSchema.properties ?? {});
  const longest = known.reduce((a, b) => (b.length > a.length ? b : a), '');
  return longest.length >= 5 ? [longest.slice(0, -1), longest] : ['bogus_argument', null];
}

test('every tool refuses an unknown argument with a hint; an unknown tool is -32602', { timeout: 120000 }, async () => {
  const client = await connected();
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.length > 30);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.additionalProperties, false, `${tool.name}: schema allows more`);
      const [wrong, closest] = misspelt(tool);
      const result = await client.callTool({ name: tool.name, arguments: { [wrong]: 1 } });
      assert.equal(result.isError, true, `${tool.name}: ${JSON.stringify(result)}`);
      const answer = JSON.parse(result.content[0].text);
      const code = answer.error === true ? answer.code : answer.error.code;
      const message = answer.error === true ? answer.message : answer.error.message;
      assert.equal(code, 'INVALID_PARAMETER', `${tool.name}: ${message}`);
      assert.ok(message.includes(`unknown parameter '${wrong}'`), `${tool.name}: ${message}`);
      if (closest) assert.ok(message.includes(`did you mean '${closest}'?`), `${tool.name}: ${message}`);
    }
    const state = await client.callTool({ name: 'debug_state', arguments: {} });
    assert.equal(state.structuredContent.state, 'not_started');
    await assert.rejects(client.callTool({ name: 'heap_stat', arguments: {} }),
      (e) => e instanceof McpError && e.code === -32602 && e.message.includes("did you mean 'heap_stats'"));
    await assert.rejects(client.getPrompt({ name: 'no_such_prompt' }), (e) => e instanceof McpError && e.code === -32602);
  } finally {
    await client.close();
  }
});
