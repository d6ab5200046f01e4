// What a client configured for netcoredbg sends, through VS Code's DebugClient: stop at
// entry in an `async Task Main` and a next from there; a function breakpoint typed as just
// the method's name; F11/F10 around awaits (framework, step-through, non-user and user
// methods, Task.WhenAll, async void; just my code on and off); breakpoints on every line of
// multi-line statements; an exception filter's condition as VS Code's C# extension writes it.
// CompatSample; every adapter message schema-checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markerLine, nextStopOrEnd, startClient, stopClient, targetDll, targetSource } from './support.mjs';

const SAMPLE = 'CompatSample';
const awaits = { path: targetSource(SAMPLE, 'AwaitSteps.cs') };
const awaitLine = marker => markerLine(SAMPLE, marker, 'AwaitSteps.cs');

/** One step request; the top frame's name and line where it stopped (a `step` stop). */
async function step(client, kind, state) {
  const stopped = client.waitForEvent('stopped');
  await client.send(kind, { threadId: state.threadId });
  const event = await stopped;
  assert.equal(event.body.reason, 'step');
  state.threadId = event.body.threadId;
  const [top] = (await client.stackTraceRequest({ threadId: state.threadId })).body.stackFrames;
  return `${top.name.replace('CompatSample.', '')}:${top.line}`;
}

test('stopAtEntry in async Main stops on the user\'s Main and next steps to its next line', async t => {
  const client = await startClient();
  try {
    const entry = client.waitForEvent('stopped');
    await Promise.all([
      client.configurationSequence(),
      client.launch({ program: targetDll(SAMPLE), args: ['cwd'], stopAtEntry: true, cwd: '' }),
    ]);
    const stopped = (await entry).body;
    assert.equal(stopped.reason, 'entry');
    const frames = (await client.stackTraceRequest({ threadId: stopped.threadId })).body.stackFrames;
    assert.equal(frames[0].name, 'CompatSample.Program.Main()');
    assert.ok(frames[0].line > 0 && frames[0].line <= markerLine(SAMPLE, 'main_first'), `entry line ${frames[0].line}`);
    const stepped = client.waitForEvent('stopped');
    await client.nextRequest({ threadId: stopped.threadId });
    const step = (await stepped).body;
    assert.equal(step.reason, 'step');
    const after = (await client.stackTraceRequest({ threadId: step.threadId })).body.stackFrames[0];
    assert.equal(after.name, 'CompatSample.Program.Main()');
    assert.ok(after.line > frames[0].line, `next went from ${frames[0].line} to ${after.line}`);
  } finally { await stopClient(client, t); }
});

test('a function breakpoint typed as just "Deep" binds and stops there', async t => {
  const client = await startClient();
  try {
    await client.launch({ program: targetDll(SAMPLE) });
    const answer = await client.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'Deep' }, { name: 'funcbp1' }] });
    const [deep, missing] = answer.body.breakpoints;
    assert.equal(deep.verified, true);
    assert.equal(deep.line, markerLine(SAMPLE, 'deep'));
    assert.equal(missing.verified, false);
    assert.match(missing.message, /pending/);
    const stop = client.assertStoppedLocation('breakpoint', { line: markerLine(SAMPLE, 'deep') });
    await client.configurationDoneRequest();
    const stack = await stop;
    assert.equal(stack.body.stackFrames[0].name, 'CompatSample.Outer.Inner.Deep()');
  } finally { await stopClient(client, t); }
});

test('F11 and F10 around awaits: the next line when nothing of the user is entered, into user methods, back on the await line', async t => {
  const client = await startClient();
  try {
    await client.hitBreakpoint({ program: targetDll(SAMPLE), args: ['await'] }, { ...awaits, line: awaitLine('await_delay') });
    await client.setBreakpointsRequest({ source: awaits, breakpoints: [] });
    const state = { threadId: client.lastStop.threadId };
    const run = marker => `AwaitSteps.Run():${awaitLine(marker)}`;
    const mine = marker => `AwaitSteps.Mine():${awaitLine(marker)}`;
    const walk = [
      ['stepIn', run('await_step_through')], ['stepIn', run('await_non_user')], ['stepIn', run('await_mine')],
      ['stepIn', mine('mine_open')], ['next', mine('mine_delay')], ['next', mine('mine_return')],
      ['next', mine('mine_close')], ['next', run('await_mine')], ['next', run('await_when_all')],
      ['stepIn', mine('mine_open')], ['next', mine('mine_delay')], ['next', mine('mine_return')],
      ['next', mine('mine_close')], ['next', run('await_when_all')], ['next', run('await_void')],
      ['stepIn', `AwaitSteps.FireAndForget():${awaitLine('void_open')}`],
      ['next', `AwaitSteps.FireAndForget():${awaitLine('void_delay')}`],
      ['next', `AwaitSteps.FireAndForget():${awaitLine('void_after')}`],
    ];
    for (const [kind, expected] of walk) assert.equal(await step(client, kind, state), expected, `${kind} to ${expected}`);
    await client.continueRequest({ threadId: state.threadId });
    assert.equal((await nextStopOrEnd(client)).event, 'terminated', 'no step left armed');
  } finally { await stopClient(client, t); }
});

test('justMyCode false: F11 on an await of a [DebuggerNonUserCode] method enters it', async t => {
  const client = await startClient();
  try {
    await client.hitBreakpoint({ program: targetDll(SAMPLE), args: ['await'], justMyCode: false },
      { ...awaits, line: awaitLine('await_step_through') });
    const state = { threadId: client.lastStop.threadId };
    assert.equal(await step(client, 'stepIn', state), `AwaitSteps.Run():${awaitLine('await_non_user')}`);
    assert.match(await step(client, 'stepIn', state), /^Library\.Triple\(\):/);
    await client.continueRequest({ threadId: state.threadId });
    assert.equal((await nextStopOrEnd(client)).event, 'terminated');
  } finally { await stopClient(client, t); }
});

test('a breakpoint on any line of a multi-line statement binds to that statement and stops there', async t => {
  const client = await startClient();
  try {
    const entry = client.waitForEvent('stopped');
    await Promise.all([
      client.configurationSequence(),
      client.launch({ program: targetDll(SAMPLE), args: ['lines'], stopAtEntry: true }),
    ]);
    const { threadId } = (await entry).body;
    const source = { path: targetSource(SAMPLE, 'Statements.cs') };
    const line = marker => markerLine(SAMPLE, marker, 'Statements.cs');
    const bindsTo = {
      chain_append: 'chain_start', chain_end: 'chain_start', args_first: 'args_start', args_end: 'args_start',
      between: 'init_start', init_x: 'init_start', init_name: 'init_start', query_end: 'query_start',
    };
    const answer = await client.setBreakpointsRequest({ source, breakpoints: Object.keys(bindsTo).map(m => ({ line: line(m) })) });
    assert.deepEqual(answer.body.breakpoints.map(b => [b.verified, b.line]), Object.values(bindsTo).map(m => [true, line(m)]));
    for (const marker of ['chain_start', 'args_start', 'init_start', 'query_start']) {
      const stop = client.assertStoppedLocation('breakpoint', { path: source.path, line: line(marker) });
      await client.continueRequest({ threadId });
      await stop;
    }
    await client.setBreakpointsRequest({ source, breakpoints: [] });
    await client.continueRequest({ threadId });
    assert.equal((await nextStopOrEnd(client)).event, 'terminated');
  } finally { await stopClient(client, t); }
});

test('an exception filter condition "!A B" means every type but A and B', async t => {
  const client = await startClient();
  try {
    await client.launch({ program: targetDll(SAMPLE), args: ['filters'] });
    await client.setExceptionBreakpointsRequest({ filters: [], filterOptions: [
      { filterId: 'all', condition: '!System.NullReferenceException System.ArgumentNullException' }] });
    const stopped = client.waitForEvent('stopped');
    await client.configurationDoneRequest();
    const event = (await stopped).body;
    assert.equal(event.reason, 'exception');
    assert.match(event.description, /InvalidOperationException: invalid/);
    const [top] = (await client.stackTraceRequest({ threadId: event.threadId })).body.stackFrames;
    assert.equal(top.line, markerLine(SAMPLE, 'filters_throw', 'Failures.cs'));
    await client.continueRequest({ threadId: event.threadId });
    assert.equal((await nextStopOrEnd(client)).event, 'terminated', 'the other two types do not stop');
  } finally { await stopClient(client, t); }
});
