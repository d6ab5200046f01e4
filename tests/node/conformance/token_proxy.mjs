// A pass-through proxy in front of `pyinspect serve --http` that adds its bearer token,
// for the MCP conformance suite (which sends no Authorization header). Requests for this
// proxy's own loopback address are re-addressed to the server; any other Host or Origin
// passes unchanged, so the server's DNS-rebinding refusals are what the suite sees.
// Responses (SSE included) stream through as they come.
//   node token_proxy.mjs LISTEN_PORT SERVER_PORT   (token in PYINSPECT_HTTP_TOKEN)
import http from 'node:http';

const [listenPort, serverPort] = process.argv.slice(2).map(Number);
const token = process.env.PYINSPECT_HTTP_TOKEN;
const ours = new Set([`localhost:${listenPort}`, `127.0.0.1:${listenPort}`]);

const proxy = http.createServer((request, response) => {
  const headers = { ...request.headers, authorization: `Bearer ${token}` };
  if (ours.has(headers.host)) headers.host = `127.0.0.1:${serverPort}`;
  if (headers.origin && ours.has(headers.origin.replace(/^https?:\/\//, ''))) {
    headers.origin = `http://127.0.0.1:${serverPort}`;
  }
  const upstream = http.request({ host: '127.0.0.1', port: serverPort, method: request.method, path: request.url,
    headers }, (answer) => {
    response.writeHead(answer.statusCode, answer.headers);
    answer.pipe(response);
  });
  upstream.on('error', (error) => {
    if (!response.headersSent) response.writeHead(502);
    response.end(String(error));
  });
  response.on('close', () => upstream.destroy());
  request.pipe(upstream);
});
proxy.listen(listenPort, '127.0.0.1', () => console.log(`proxy listening on ${listenPort}`));
