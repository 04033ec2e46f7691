import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudChatMedia } from '../src/whatsapp/media/cloud-media.js';
import { LocalChatMedia, storeLocalChatMedia } from '../src/whatsapp/media/local-media.js';
import { ChatMediaError } from '../src/whatsapp/message/chat-message.js';
import { type GraphApiStandIn, startGraphApi } from './support/graph-api.js';
import { startHttpReceiver } from './support/http-receiver.js';
import { jpeg, png } from './support/images.js';
import { dialects, startTestService, type TestService } from './support/service.js';
import { startWhatsAppService } from './support/whatsapp-service.js';

describe("the photos people send in WhatsApp, fetched the Cloud API's way", () => {
  let graph: GraphApiStandIn;
  let media: CloudChatMedia;
  beforeAll(async () => {
    graph = await startGraphApi();
    media = new CloudChatMedia({ token: graph.token, baseUrl: graph.url, timeoutMs: 2000 });
  });
  afterAll(() => graph.close());

  it('the lookup by media id with the token gives the url, and the url with the token the bytes', async () => {
    const photo = jpeg();
    const id = graph.addMedia(photo, 'image/jpeg');
    const got = await media.download(id, { maxBytes: 1024 * 1024 });
    expect(got.mimeType).toBe('image/jpeg');
    expect(got.bytes.equals(photo)).toBe(true);
    expect(graph.unauthorized).toBe(0);
  });

  it('refused: larger than maxBytes by the size Meta gives, or while reading when Meta understated it; not an image; unknown; a wrong token', async () => {
    const big = Buffer.concat([jpeg(), Buffer.alloc(4096)]);
    const refusals = [
      () => media.download(graph.addMedia(big, 'image/jpeg'), { maxBytes: 1024 }),
      () => media.download(graph.addMedia(big, 'image/jpeg', { declaredSize: 100 }), { maxBytes: 1024 }),
      () => media.download(graph.addMedia(Buffer.from('%PDF-1.7'), 'application/pdf'), { maxBytes: 1024 }),
      () => media.download('999999999', { maxBytes: 1024 }),
      () =>
        new CloudChatMedia({ token: 'not-the-token', baseUrl: graph.url, timeoutMs: 2000 }).download(graph.addMedia(jpeg(), 'image/jpeg'), { maxBytes: 1024 }),
    ];
    for (const refusal of refusals) await expect(refusal()).rejects.toBeInstanceOf(ChatMediaError);
  });

  it('a Graph API that does not answer in time is refused, not waited on', async () => {
    const silent = await startHttpReceiver();
    silent.answer(() => 'no answer');
    try {
      const started = Date.now();
      await expect(new CloudChatMedia({ token: 't', baseUrl: silent.url, timeoutMs: 300 }).download('1', { maxBytes: 1024 })).rejects.toBeInstanceOf(
        ChatMediaError,
      );
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await silent.close();
    }
  });
});

describe.each(dialects)('the media of the local chat page, with no provider configured (%s)', (dialect) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(dialect);
  });
  afterAll(() => svc.close());

  it('deps choose the local store without a provider, and the Cloud API with one', async () => {
    expect(svc.deps.chatMedia).toBeInstanceOf(LocalChatMedia);
    const graph = await startGraphApi();
    const withProvider = await startWhatsAppService(dialect, graph);
    try {
      expect(withProvider.deps.chatMedia).toBeInstanceOf(CloudChatMedia);
    } finally {
      await withProvider.close();
      await graph.close();
    }
  });

  it('a photo stored by the page is read back by its id, once (the plain copy goes: the photo vault keeps it encrypted); other ids, other types and larger files are refused', async () => {
    const photo = png();
    const id = await storeLocalChatMedia(svc.deps.blobs, { bytes: photo, mimeType: 'image/png' });
    expect(id).toMatch(/^[0-9a-f]{32}\.png$/);
    await expect(svc.deps.chatMedia.download(id, { maxBytes: 10 })).rejects.toBeInstanceOf(ChatMediaError);
    const got = await svc.deps.chatMedia.download(id, { maxBytes: 1024 * 1024 });
    expect([got.mimeType, got.bytes.equals(photo)]).toEqual(['image/png', true]);
    await expect(svc.deps.chatMedia.download(id, { maxBytes: 1024 * 1024 })).rejects.toBeInstanceOf(ChatMediaError);
    await expect(svc.deps.chatMedia.download('../templates/x.html', { maxBytes: 1024 })).rejects.toBeInstanceOf(ChatMediaError);
    await expect(svc.deps.chatMedia.download(`${'0'.repeat(32)}.jpg`, { maxBytes: 1024 })).rejects.toBeInstanceOf(ChatMediaError);
    await expect(storeLocalChatMedia(svc.deps.blobs, { bytes: Buffer.from('<svg/>'), mimeType: 'image/svg+xml' })).rejects.toBeInstanceOf(ChatMediaError);
  });
});
