import { linkTokenOf, peopleClient } from './client.js';
import { runEmbedded } from './embedded.js';
import { runEmbeddedFill } from './embedded-fill.js';
import { FillFlow } from './fill/fill-flow.js';
import { isLanguage, setLanguage } from './i18n.js';
import { languagePicker } from './language-picker.js';
import { ReadingFlow } from './reading-flow.js';
import { SigningFlow } from './signing/flow.js';
import { ValidationFlow } from './validation-flow.js';

const root = document.getElementById('app');
if (root) {
  // The server chose the language from Accept-Language; the picker or the SDK's init message may change it.
  const language = document.documentElement.lang;
  if (isLanguage(language)) setLanguage(language);
  root.before(languagePicker());
  const token = linkTokenOf(window.location.href);
  switch (root.dataset.mode) {
    case 'sign':
      void new SigningFlow(root, peopleClient(token)).start();
      break;
    case 'validation':
      void new ValidationFlow(root, peopleClient(token)).start();
      break;
    case 'embed':
      runEmbedded(root);
      break;
    case 'read':
      void new ReadingFlow(root, peopleClient(token)).start();
      break;
    case 'fill':
      void new FillFlow(root, peopleClient(token), { storageKey: token }).start();
      break;
    case 'embedded-fill':
      runEmbeddedFill(root, token);
      break;
  }
}
