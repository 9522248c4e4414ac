// Starts Swagger UI on the docs page (service/api/docs/docs_page.py). A file, not an
// inline script, so the page's Content-Security-Policy can refuse inline code.
"use strict";
(function () {
  const root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapi,
    domNode: root,
    deepLinking: true,
    displayRequestDuration: true,
    // The validator badge would send the document to a public host.
    validatorUrl: null,
    // Tokens stay in this tab's memory, never in the browser's storage.
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis],
  });
})();
