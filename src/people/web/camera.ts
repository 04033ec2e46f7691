import type { PhotoInput } from '../contract.js';
import { alertLine, h, show, statusLine } from './dom.js';
import { type MessageKey, t } from './i18n.js';

export type PhotoKind = PhotoInput['kind'];

const TITLES: Record<PhotoKind, MessageKey> = { face: 'photoTitleFace', documentFront: 'photoTitleFront', documentBack: 'photoTitleBack' };
/** Photos are sent scaled down: enough for a face comparison, small on a phone's data plan. */
const MAX_SIDE = 1600;

/** Brightness and sharpness of a small grey copy of the frame: the live guidance before a shot. */
export function frameQuality(pixels: Uint8ClampedArray, width: number, height: number): { brightness: number; sharpness: number } {
  const grey = new Float32Array(width * height);
  let sum = 0;
  for (let i = 0; i < width * height; i++) {
    const value = 0.299 * (pixels[i * 4] ?? 0) + 0.587 * (pixels[i * 4 + 1] ?? 0) + 0.114 * (pixels[i * 4 + 2] ?? 0);
    grey[i] = value;
    sum += value;
  }
  // Variance of the Laplacian: low when the image has no crisp edges (motion or focus blur).
  let count = 0;
  let mean = 0;
  let squares = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const laplacian = (grey[i - 1] ?? 0) + (grey[i + 1] ?? 0) + (grey[i - width] ?? 0) + (grey[i + width] ?? 0) - 4 * (grey[i] ?? 0);
      count++;
      mean += laplacian;
      squares += laplacian * laplacian;
    }
  }
  mean /= Math.max(1, count);
  return { brightness: sum / Math.max(1, width * height), sharpness: squares / Math.max(1, count) - mean * mean };
}

function guidanceFor(quality: { brightness: number; sharpness: number }): MessageKey {
  if (quality.brightness < 55) return 'cameraGuideDark';
  if (quality.sharpness < 25) return 'cameraGuideBlur';
  return 'cameraGuideOk';
}

/** A JPEG of at most MAX_SIDE pixels a side from any drawable source. */
function toJpeg(source: CanvasImageSource, width: number, height: number): Promise<Blob> {
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  const canvas = h('canvas', { width: Math.round(width * scale), height: Math.round(height * scale) });
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('no 2d canvas'));
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no JPEG'))), 'image/jpeg', 0.9));
}

export interface CaptureOptions {
  kind: PhotoKind;
  /** Words to show above the camera: why the last photo could not be used, say. */
  notice?: string;
  /** Sends the photo; a message thrown back is shown and the person retakes. */
  send(photo: Blob): Promise<void>;
  /** Extra controls under the camera (continuing on a phone). */
  extra?: HTMLElement | undefined;
}

/**
 * One photo: the live camera with its frame and guidance, or a file where there is no camera;
 * then a review of the photo before it is sent, with a retake.
 */
export function capturePhoto(container: HTMLElement, options: CaptureOptions): void {
  const isFace = options.kind === 'face';
  const status = statusLine();
  const alert = alertLine();
  if (options.notice) alert.say(options.notice);
  let stream: MediaStream | undefined;
  let guidanceTimer: number | undefined;

  const stop = () => {
    if (guidanceTimer !== undefined) window.clearInterval(guidanceTimer);
    for (const track of stream?.getTracks() ?? []) track.stop();
    stream = undefined;
  };

  const review = (photo: Blob) => {
    stop();
    const url = URL.createObjectURL(photo);
    const use = h('button', { type: 'button', class: 'primary' }, t('usePhoto'));
    const again = h('button', { type: 'button', class: 'secondary' }, t('retake'));
    const reviewStatus = statusLine();
    const reviewAlert = alertLine();
    use.addEventListener('click', async () => {
      use.disabled = true;
      again.disabled = true;
      reviewStatus.say(t(isFace ? 'checking' : 'sending'));
      try {
        await options.send(photo);
        URL.revokeObjectURL(url);
      } catch (error) {
        reviewStatus.say('');
        reviewAlert.say(error instanceof Error ? error.message : t('genericError'));
        use.disabled = false;
        again.disabled = false;
      }
    });
    again.addEventListener('click', () => {
      URL.revokeObjectURL(url);
      start();
    });
    show(
      container,
      h('h2', {}, t('reviewTitle')),
      h('p', {}, t('reviewHelp')),
      h('img', { src: url, alt: t('reviewImage'), class: `review ${isFace ? 'mirror' : ''}` }),
      reviewAlert.element,
      reviewStatus.element,
      h('div', { class: 'actions' }, use, again),
    );
    use.focus();
  };

  const fileInput = h('input', {
    type: 'file',
    accept: 'image/jpeg,image/png',
    capture: isFace ? 'user' : 'environment',
    id: `file-${options.kind}`,
    class: 'visually-hidden',
  });
  fileInput.addEventListener('change', async () => {
    const file = fileInput.files?.[0];
    if (!file) return;
    try {
      const bitmap = await createImageBitmap(file);
      review(await toJpeg(bitmap, bitmap.width, bitmap.height));
    } catch {
      alert.say(t('imageUnreadable'));
    }
  });
  const upload = h('label', { for: fileInput.id, class: 'button secondary' }, t('uploadInstead'));

  const start = () => {
    const video = h('video', { autoplay: true, playsinline: true, muted: true, class: isFace ? 'mirror' : '' });
    const frame = h('div', { class: `camera ${isFace ? 'oval' : 'card'}` }, video, h('div', { class: 'guide', 'aria-hidden': 'true' }));
    const open = h('button', { type: 'button', class: 'primary' }, t('cameraStart'));
    const take = h('button', { type: 'button', class: 'primary', hidden: true }, t('cameraTake'));
    show(
      container,
      h('h2', {}, t(TITLES[options.kind])),
      h('p', {}, t(isFace ? 'photoHelpFace' : 'photoHelpDocument')),
      alert.element,
      frame,
      status.element,
      h('div', { class: 'actions' }, open, take, upload, fileInput),
      options.extra,
    );
    frame.hidden = true;
    open.addEventListener('click', async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        alert.say(t('cameraUnavailable'));
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: isFace ? 'user' : 'environment', width: { ideal: 1280 }, height: { ideal: 960 } },
          audio: false,
        });
      } catch {
        alert.say(t('cameraUnavailable'));
        return;
      }
      video.srcObject = stream;
      frame.hidden = false;
      open.hidden = true;
      take.hidden = false;
      take.focus();
      const probe = h('canvas', { width: 160, height: 120 });
      const probeContext = probe.getContext('2d', { willReadFrequently: true });
      let said: MessageKey | undefined;
      guidanceTimer = window.setInterval(() => {
        // Drawn again (another language) or moved on (finished on the phone): the camera is let go.
        if (!video.isConnected) return stop();
        if (!probeContext || video.readyState < 2) return;
        probeContext.drawImage(video, 0, 0, probe.width, probe.height);
        const advice = guidanceFor(frameQuality(probeContext.getImageData(0, 0, probe.width, probe.height).data, probe.width, probe.height));
        if (advice !== said) status.say(t(advice));
        said = advice;
      }, 700);
    });
    take.addEventListener('click', async () => {
      if (video.videoWidth === 0) return;
      try {
        review(await toJpeg(video, video.videoWidth, video.videoHeight));
      } catch {
        alert.say(t('imageUnreadable'));
      }
    });
  };
  start();
}
