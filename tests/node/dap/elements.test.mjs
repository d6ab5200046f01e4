// setVariable on a collection's children through VS Code's DebugClient: an array element,
// a List item and a Dictionary value take new values the debuggee then holds (evaluate
// reads them back); a HashSet element is refused with the reason. Every message schema-checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markerLine, startClient, stopClient, targetDll, targetSource } from './support.mjs';

async function locals(client) {
  const threadId = client.lastStop.threadId;
  const frame = (await client.stackTraceRequest({ threadId })).body.stackFrames[0];
  const scope = (await client.scopesRequest({ frameId: frame.id })).body.scopes[0];
  const variables = (await client.variablesRequest({ variablesReference: scope.variablesReference })).body.variables;
  return { frame, byName: Object.fromEntries(variables.map(v => [v.name, v])) };
}

const evaluate = async (client, frame, expression) =>
  (await client.evaluateRequest({ expression, frameId: frame.id, context: 'watch' })).body.result;

test('setVariable writes an array element and a List item', async t => {
  const client = await startClient();
  try {
    const sample = 'AdapterSample';
    await client.hitBreakpoint({ program: targetDll(sample) }, { path: targetSource(sample), line: markerLine(sample, 'locals') });
    const { frame, byName } = await locals(client);
    const element = await client.setVariableRequest({ variablesReference: byName.numbers.variablesReference, name: '[1]', value: '20' });
    assert.equal(element.body.value, '20');
    await client.setVariableRequest({ variablesReference: byName.list.variablesReference, name: '[0]', value: '-5' });
    assert.equal(await evaluate(client, frame, 'numbers[1] + list[0]'), '15');
  } finally { await stopClient(client, t); }
});

test('setVariable writes a Dictionary value and refuses a HashSet element', async t => {
  const client = await startClient();
  try {
    const sample = 'InspectSample';
    await client.hitBreakpoint({ program: targetDll(sample), args: ['props'] }, { path: targetSource(sample), line: markerLine(sample, 'props') });
    const { frame, byName } = await locals(client);
    await client.setVariableRequest({ variablesReference: byName.ages.variablesReference, name: '["cy"]', value: '8' });
    assert.equal(await evaluate(client, frame, 'ages["cy"]'), '8');
    await assert.rejects(
      client.setVariableRequest({ variablesReference: byName.tags.variablesReference, name: '[0]', value: '"z"' }),
      /HashSet/);
  } finally { await stopClient(client, t); }
});
