import type Joi from 'joi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '../src/error-catalogue.js';
import { routeTable } from '../src/routes.js';
import { startTestService, type TestService } from './support/service.js';

describe('the OpenAPI description is generated from the validation schemas', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService('sqlite');
  });
  afterAll(async () => svc.close());

  it('is served at /docs/json with every template operation and its schemas', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const spec = res.json();
    expect(spec.openapi).toBe('3.1.0');
    const template = spec.paths['/v1.5/ext/template'];
    expect(Object.keys(template).sort()).toEqual(['delete', 'get', 'post', 'put']);
    expect(template.post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['name', 'config', 'signatureProfile', 'sign']),
    );
    expect(template.put.requestBody.content['application/json'].schema.properties.description.maxLength).toBe(500);
    expect(template.delete.responses['400'].description).toContain('TEMPLATE_IN_USE');
    expect(spec.paths['/v1.5/ext/template/reference']).toBeDefined();
    expect(spec.paths['/v1.5/ext/veriface/documents']).toBeDefined();
    expect(spec.paths['/v1.5/ext/veriface']).toBeDefined();
    expect(Object.keys(spec.webhooks)).toEqual(expect.arrayContaining(['webhook.test', 'veriface.created', 'veriface.approved', 'veriface.expired']));
    expect(spec.webhooks['veriface.approved'].post.requestBody.content['application/json'].schema.properties.data.properties.similarity).toBeDefined();
    for (const path of ['/document/save', '/document/upload', '/document/many', '/document/cancel', '/document', '/document/roadmap']) {
      expect(spec.paths[`/v1.5/ext${path}`]).toBeDefined();
    }
    expect(spec.paths['/v1.5/ext/document/upload'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['email', 'name', 'signProfile']),
    );
    expect(Object.keys(spec.webhooks)).toEqual(
      expect.arrayContaining(['document.created', 'document.finished', 'document.cancelled', 'package.finished', 'document.signer_blocked']),
    );
    expect(spec.webhooks['package.finished'].post.requestBody.content['application/json'].schema.properties.data.properties.status).toEqual({
      const: 'SIGNED_PACKAGE',
    });
    expect(spec.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
  });

  it('every operation shows a request example valid against its own body schema, a success example valid against its response schema, and an example of each error it declares', async () => {
    const spec = (await svc.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const routes = routeTable(svc.config, svc.deps);
    const problems: string[] = [];
    const check = (label: string, schema: Joi.Schema, example: unknown) => {
      if (example === undefined) problems.push(`${label}: no example`);
      else {
        const { error } = schema.validate(example);
        if (error) problems.push(`${label}: ${error.message}`);
      }
    };
    for (const route of routes) {
      const label = `${route.method} ${route.url}`;
      const operation = spec.paths[route.url.replace('*', '{*}').replace(/:(\w+)/g, '{$1}')][route.method.toLowerCase()];
      const request = operation.requestBody?.content['application/json'];
      if (Object.keys(route.body.describe().keys ?? {}).length > 0 && !route.rawBody) check(`${label} request`, route.body, request?.example);
      else if (request !== undefined) problems.push(`${label}: a JSON body it does not take`);
      const success = operation.responses['200'].content ?? {};
      if ('json' in route.response) check(`${label} success`, route.response.json, success['application/json']?.example);
      for (const type of route.response.raw?.mediaTypes ?? []) if (!success[type]) problems.push(`${label}: ${type} undocumented`);
      for (const [status, response] of Object.entries<{ content: Record<string, { examples?: Record<string, { value: { message: string } }> }> }>(
        operation.responses,
      )) {
        if (status === '200') continue;
        const examples = Object.values(response.content['application/json']?.examples ?? {});
        if (examples.length === 0) problems.push(`${label} ${status}: no example`);
        for (const { value } of examples) {
          const code = codeOf(value.message);
          if (code === undefined || route.answerableErrors.get(code) !== Number(status))
            problems.push(`${label} ${status}: example ${value.message} is not declared there`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(routes.length).toBeGreaterThanOrEqual(50);
  });

  it('the documentation UI is served at /docs', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });

  it('unknown routes answer 404 with a message', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/v1.5/ext/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'ROUTE_NOT_FOUND: no route GET /v1.5/ext/nothing-here' });
  });
});
