// /docs: the API reference, drawn by Swagger UI (served from node_modules) from the server's own
// /v1/openapi.json. "Try it out" sends the key this browser keeps (tally.apiKey), as the pages do.
import { KEY_STORAGE } from './api.js';

const key = localStorage.getItem(KEY_STORAGE);
window.SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#app',
  // The public validator is elsewhere on the internet: the page loads nothing from outside.
  validatorUrl: null,
  deepLinking: true,
  requestInterceptor(request) {
    if (key !== null && !request.headers.Authorization) request.headers.Authorization = `Bearer ${key}`;
    return request;
  },
});
