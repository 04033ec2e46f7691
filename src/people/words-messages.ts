import type { Language } from '../organizations/languages.js';

/*
 * Every word of the e-mails and SMS the service sends people (and of the WhatsApp message with a
 * link to continue on a phone; the WhatsApp conversation speaks with words-chat.ts), in the same four languages as the pages' words (words.ts, beside it) and with the same
 * voice: tú in Spanish, você in Portuguese, vous in French. Apart from words.ts because the browser
 * bundles that one and has no use for these. `{{name}}` is a variable of the message
 * (message-templates.ts says which, and does not compile while a language uses one its message
 * lacks or forgets one it has). The one-time code never goes in a subject: mail clients show
 * subjects on lock screens.
 */

/** What one message is made of: the e-mail's subject, its plain text (also the SMS and WhatsApp text) and its HTML. */
export interface MessageWords {
  subject: string;
  text: string;
  html: string;
}

const es = {
  'signing-invitation': {
    subject: '{{subject}}',
    text: `Hola, {{signerName}}:

Te invitaron a firmar «{{processName}}».

{{message}}

Léelo y fírmalo aquí:
{{link}}`,
    html: `<p>Hola, {{signerName}}:</p>
<p>Te invitaron a firmar <strong>{{processName}}</strong>.</p>
<p>{{message}}</p>
<p><a href="{{link}}">Leer y firmar</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  'signing-reminder': {
    subject: 'Recordatorio: «{{processName}}» espera tu firma',
    text: `Hola, {{signerName}}:

«{{processName}}» todavía espera tu firma. Léelo y fírmalo aquí:
{{link}}`,
    html: `<p>Hola, {{signerName}}:</p>
<p><strong>{{processName}}</strong> todavía espera tu firma.</p>
<p><a href="{{link}}">Leer y firmar</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  'process-cancelled': {
    subject: 'Documento cancelado: «{{processName}}»',
    text: `Hola, {{signerName}}:

Se canceló «{{processName}}» y ya no se puede firmar.

{{message}}`,
    html: `<p>Hola, {{signerName}}:</p>
<p>Se canceló <strong>{{processName}}</strong> y ya no se puede firmar.</p>
<p>{{message}}</p>`,
  },
  'otp-code': {
    subject: 'Tu código de verificación',
    text: 'Tu código de verificación es {{code}}. Vence en {{minutes}} minutos. No lo compartas con nadie.',
    html: `<p>Tu código de verificación es <strong>{{code}}</strong>.</p>
<p>Vence en {{minutes}} minutos. No lo compartas con nadie.</p>`,
  },
  'veriface-invitation': {
    subject: 'Valida tu identidad',
    text: `Hola, {{personName}}:

Valida tu identidad con una foto de tu documento y una de tu cara, aquí:
{{link}}`,
    html: `<p>Hola, {{personName}}:</p>
<p>Valida tu identidad con una foto de tu documento y una de tu cara.</p>
<p><a href="{{link}}">Validar mi identidad</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  'document-for-printing': {
    subject: 'Para imprimir: «{{processName}}»',
    text: `Hola, {{signerName}}:

Te enviamos «{{processName}}» para que lo imprimas: va adjunto en PDF.

{{message}}`,
    html: `<p>Hola, {{signerName}}:</p>
<p>Te enviamos <strong>{{processName}}</strong> para que lo imprimas: va adjunto en PDF.</p>
<p>{{message}}</p>`,
  },
  'attachments-approved': {
    subject: 'Archivos aprobados: «{{processName}}»',
    text: `Se aprobaron todos los archivos de «{{processName}}».

El certificado está aquí:
{{link}}`,
    html: `<p>Se aprobaron todos los archivos de <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Ver el certificado</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  'process-finished': {
    subject: 'Documento firmado: «{{processName}}»',
    text: `Todos firmaron «{{processName}}».

Descarga el documento firmado aquí:
{{link}}`,
    html: `<p>Todos firmaron <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Descargar el documento firmado</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  'continue-on-phone': {
    subject: 'Sigue con «{{processName}}» en tu teléfono',
    text: 'Sigue con «{{processName}}» en tu teléfono aquí: {{link}}',
    html: `<p>Sigue con <strong>{{processName}}</strong> en tu teléfono.</p>
<p><a href="{{link}}">Seguir</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  'document-copy': {
    subject: 'Tu copia de «{{processName}}»',
    text: `Hola, {{signerName}}:

Pediste una copia de «{{processName}}». Léela o descárgala cuando quieras, aquí:
{{link}}`,
    html: `<p>Hola, {{signerName}}:</p>
<p>Pediste una copia de <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Léela o descárgala</a> cuando quieras.</p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  // A prebuilt process's form (POST /document/prebuild), sent to who completes it.
  'prebuilt-invitation': {
    subject: 'Completa «{{processName}}»',
    text: `Hola:

{{organization}} preparó «{{processName}}» y te pide completar los datos que faltan. Después, quienes deben firmarlo reciben su invitación.

Complétalo aquí:
{{link}}`,
    html: `<p>Hola:</p>
<p>{{organization}} preparó <strong>{{processName}}</strong> y te pide completar los datos que faltan. Después, quienes deben firmarlo reciben su invitación.</p>
<p><a href="{{link}}">Completar</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  // The operator console's sign-in (src/console/sign-in.ts), sent to a user of the organization.
  'console-sign-in': {
    subject: 'Entra a la consola de {{organization}}',
    text: `Hola:

Para entrar a la consola de {{organization}}, abre este enlace:
{{link}}

O escribe este código en la página donde lo pediste: {{code}}

El enlace y el código sirven una sola vez y vencen en {{minutes}} minutos. Si no lo pediste tú, ignora este mensaje.`,
    html: `<p>Hola:</p>
<p>Para entrar a la consola de <strong>{{organization}}</strong>, abre este enlace:</p>
<p><a href="{{link}}">Entrar a la consola</a></p>
<p>O escribe este código en la página donde lo pediste: <strong>{{code}}</strong></p>
<p>El enlace y el código sirven una sola vez y vencen en {{minutes}} minutos. Si no lo pediste tú, ignora este mensaje.</p>`,
  },
  // A reader (`readers`) follows the process: invited to read it, told of every signature, rejection and end.
  'reader-invitation': {
    subject: 'Para tu información: «{{processName}}»',
    text: `Hola, {{readerName}}:

Te compartieron «{{processName}}» para que sigas su firma. Puedes leerlo; no tienes que firmar nada.

{{message}}

Míralo aquí:
{{link}}`,
    html: `<p>Hola, {{readerName}}:</p>
<p>Te compartieron <strong>{{processName}}</strong> para que sigas su firma. Puedes leerlo; no tienes que firmar nada.</p>
<p>{{message}}</p>
<p><a href="{{link}}">Ver el documento</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  'reader-signed': {
    subject: '{{participantName}} firmó «{{processName}}»',
    text: `Hola, {{readerName}}:

{{participantName}} firmó «{{processName}}».

Míralo aquí:
{{link}}`,
    html: `<p>Hola, {{readerName}}:</p>
<p>{{participantName}} firmó <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Ver el documento</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  'reader-approved': {
    subject: '{{participantName}} aprobó «{{processName}}»',
    text: `Hola, {{readerName}}:

{{participantName}} aprobó «{{processName}}».

Míralo aquí:
{{link}}`,
    html: `<p>Hola, {{readerName}}:</p>
<p>{{participantName}} aprobó <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Ver el documento</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  'reader-rejected': {
    subject: 'Documento rechazado: «{{processName}}»',
    text: `Hola, {{readerName}}:

{{participantName}} rechazó «{{processName}}» y ya no se firmará.

Míralo aquí:
{{link}}`,
    html: `<p>Hola, {{readerName}}:</p>
<p>{{participantName}} rechazó <strong>{{processName}}</strong> y ya no se firmará.</p>
<p><a href="{{link}}">Ver el documento</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  'reader-cancelled': {
    subject: 'Documento cancelado: «{{processName}}»',
    text: `Hola, {{readerName}}:

Se canceló «{{processName}}» y ya no se firmará.

{{message}}

Míralo aquí:
{{link}}`,
    html: `<p>Hola, {{readerName}}:</p>
<p>Se canceló <strong>{{processName}}</strong> y ya no se firmará.</p>
<p>{{message}}</p>
<p><a href="{{link}}">Ver el documento</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  'reader-expired': {
    subject: 'Documento vencido: «{{processName}}»',
    text: `Hola, {{readerName}}:

«{{processName}}» venció antes de que todos lo firmaran.

Míralo aquí:
{{link}}`,
    html: `<p>Hola, {{readerName}}:</p>
<p><strong>{{processName}}</strong> venció antes de que todos lo firmaran.</p>
<p><a href="{{link}}">Ver el documento</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  'reader-reactivated': {
    subject: 'Documento de nuevo en firma: «{{processName}}»',
    text: `Hola, {{readerName}}:

«{{processName}}» vuelve a estar en firma: se invitó de nuevo a quienes faltan por firmar.

Míralo aquí:
{{link}}`,
    html: `<p>Hola, {{readerName}}:</p>
<p><strong>{{processName}}</strong> vuelve a estar en firma: se invitó de nuevo a quienes faltan por firmar.</p>
<p><a href="{{link}}">Ver el documento</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
  'reader-delegated': {
    subject: '{{participantName}} delegó su firma de «{{processName}}»',
    text: `Hola, {{readerName}}:

{{participantName}} pasó su lugar en «{{processName}}» a {{delegateName}}.

Míralo aquí:
{{link}}`,
    html: `<p>Hola, {{readerName}}:</p>
<p>{{participantName}} pasó su lugar en <strong>{{processName}}</strong> a {{delegateName}}.</p>
<p><a href="{{link}}">Ver el documento</a></p>
<p>O abre esta dirección: {{link}}</p>`,
  },
} as const satisfies Record<string, MessageWords>;

/** The messages there are: those of the default language, which every other language has too. */
export type MessageName = keyof typeof es;

const en = {
  'signing-invitation': {
    subject: '{{subject}}',
    text: `Hello {{signerName}},

You are invited to sign "{{processName}}".

{{message}}

Read and sign it here:
{{link}}`,
    html: `<p>Hello {{signerName}},</p>
<p>You are invited to sign <strong>{{processName}}</strong>.</p>
<p>{{message}}</p>
<p><a href="{{link}}">Read and sign it</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'signing-reminder': {
    subject: 'Reminder: "{{processName}}" is waiting for you',
    text: `Hello {{signerName}},

"{{processName}}" is still waiting for you. Read and sign it here:
{{link}}`,
    html: `<p>Hello {{signerName}},</p>
<p><strong>{{processName}}</strong> is still waiting for you.</p>
<p><a href="{{link}}">Read and sign it</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'process-cancelled': {
    subject: '"{{processName}}" was cancelled',
    text: `Hello {{signerName}},

"{{processName}}" was cancelled and can no longer be signed.

{{message}}`,
    html: `<p>Hello {{signerName}},</p>
<p><strong>{{processName}}</strong> was cancelled and can no longer be signed.</p>
<p>{{message}}</p>`,
  },
  'otp-code': {
    subject: 'Your verification code',
    text: 'Your verification code is {{code}}. It is valid for {{minutes}} minutes. Do not share it with anyone.',
    html: `<p>Your verification code is <strong>{{code}}</strong>.</p>
<p>It is valid for {{minutes}} minutes. Do not share it with anyone.</p>`,
  },
  'veriface-invitation': {
    subject: 'Confirm your identity',
    text: `Hello {{personName}},

Confirm your identity with a photo of your ID and one of your face, here:
{{link}}`,
    html: `<p>Hello {{personName}},</p>
<p>Confirm your identity with a photo of your ID and one of your face.</p>
<p><a href="{{link}}">Confirm my identity</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'document-for-printing': {
    subject: 'To print: "{{processName}}"',
    text: `Hello {{signerName}},

Here is "{{processName}}" for you to print: it is attached as a PDF.

{{message}}`,
    html: `<p>Hello {{signerName}},</p>
<p>Here is <strong>{{processName}}</strong> for you to print: it is attached as a PDF.</p>
<p>{{message}}</p>`,
  },
  'attachments-approved': {
    subject: 'Files approved: "{{processName}}"',
    text: `Every file of "{{processName}}" was approved.

The certificate is here:
{{link}}`,
    html: `<p>Every file of <strong>{{processName}}</strong> was approved.</p>
<p><a href="{{link}}">See the certificate</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'process-finished': {
    subject: '"{{processName}}" is signed',
    text: `Everyone has signed "{{processName}}".

Download the signed document here:
{{link}}`,
    html: `<p>Everyone has signed <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Download the signed document</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'continue-on-phone': {
    subject: 'Continue "{{processName}}" on your phone',
    text: 'Continue "{{processName}}" on your phone here: {{link}}',
    html: `<p>Continue <strong>{{processName}}</strong> on your phone.</p>
<p><a href="{{link}}">Continue</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'document-copy': {
    subject: 'Your copy of "{{processName}}"',
    text: `Hello {{signerName}},

You asked for a copy of "{{processName}}". Read or download it at any time here:
{{link}}`,
    html: `<p>Hello {{signerName}},</p>
<p>You asked for a copy of <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Read or download it</a> at any time.</p>
<p>Or open this address: {{link}}</p>`,
  },
  // A prebuilt process's form (POST /document/prebuild), sent to who completes it.
  'prebuilt-invitation': {
    subject: 'Complete "{{processName}}"',
    text: `Hello,

{{organization}} prepared "{{processName}}" and asks you to complete the missing details. Then everyone who must sign it gets their invitation.

Complete it here:
{{link}}`,
    html: `<p>Hello,</p>
<p>{{organization}} prepared <strong>{{processName}}</strong> and asks you to complete the missing details. Then everyone who must sign it gets their invitation.</p>
<p><a href="{{link}}">Complete it</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  // The operator console's sign-in (src/console/sign-in.ts), sent to a user of the organization.
  'console-sign-in': {
    subject: 'Sign in to the {{organization}} console',
    text: `Hello,

To sign in to the {{organization}} console, open this link:
{{link}}

Or type this code on the page where you asked for it: {{code}}

The link and the code work once and expire in {{minutes}} minutes. If you did not ask for this, ignore this message.`,
    html: `<p>Hello,</p>
<p>To sign in to the <strong>{{organization}}</strong> console, open this link:</p>
<p><a href="{{link}}">Sign in to the console</a></p>
<p>Or type this code on the page where you asked for it: <strong>{{code}}</strong></p>
<p>The link and the code work once and expire in {{minutes}} minutes. If you did not ask for this, ignore this message.</p>`,
  },
  // A reader (`readers`) follows the process: invited to read it, told of every signature, rejection and end.
  'reader-invitation': {
    subject: 'For your information: "{{processName}}"',
    text: `Hello {{readerName}},

"{{processName}}" was shared with you so you can follow its signing. You can read it; you do not have to sign anything.

{{message}}

See it here:
{{link}}`,
    html: `<p>Hello {{readerName}},</p>
<p><strong>{{processName}}</strong> was shared with you so you can follow its signing. You can read it; you do not have to sign anything.</p>
<p>{{message}}</p>
<p><a href="{{link}}">See the document</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'reader-signed': {
    subject: '{{participantName}} signed "{{processName}}"',
    text: `Hello {{readerName}},

{{participantName}} signed "{{processName}}".

See it here:
{{link}}`,
    html: `<p>Hello {{readerName}},</p>
<p>{{participantName}} signed <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">See the document</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'reader-approved': {
    subject: '{{participantName}} approved "{{processName}}"',
    text: `Hello {{readerName}},

{{participantName}} approved "{{processName}}".

See it here:
{{link}}`,
    html: `<p>Hello {{readerName}},</p>
<p>{{participantName}} approved <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">See the document</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'reader-rejected': {
    subject: '"{{processName}}" was rejected',
    text: `Hello {{readerName}},

{{participantName}} rejected "{{processName}}"; it will not be signed.

See it here:
{{link}}`,
    html: `<p>Hello {{readerName}},</p>
<p>{{participantName}} rejected <strong>{{processName}}</strong>; it will not be signed.</p>
<p><a href="{{link}}">See the document</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'reader-cancelled': {
    subject: '"{{processName}}" was cancelled',
    text: `Hello {{readerName}},

"{{processName}}" was cancelled; it will not be signed.

{{message}}

See it here:
{{link}}`,
    html: `<p>Hello {{readerName}},</p>
<p><strong>{{processName}}</strong> was cancelled; it will not be signed.</p>
<p>{{message}}</p>
<p><a href="{{link}}">See the document</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'reader-expired': {
    subject: '"{{processName}}" expired',
    text: `Hello {{readerName}},

"{{processName}}" expired before everyone signed it.

See it here:
{{link}}`,
    html: `<p>Hello {{readerName}},</p>
<p><strong>{{processName}}</strong> expired before everyone signed it.</p>
<p><a href="{{link}}">See the document</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'reader-reactivated': {
    subject: '"{{processName}}" is in signature again',
    text: `Hello {{readerName}},

"{{processName}}" is in signature again: those who have not signed yet were invited again.

See it here:
{{link}}`,
    html: `<p>Hello {{readerName}},</p>
<p><strong>{{processName}}</strong> is in signature again: those who have not signed yet were invited again.</p>
<p><a href="{{link}}">See the document</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'reader-delegated': {
    subject: '{{participantName}} delegated their signature of "{{processName}}"',
    text: `Hello {{readerName}},

{{participantName}} handed their place in "{{processName}}" to {{delegateName}}.

See it here:
{{link}}`,
    html: `<p>Hello {{readerName}},</p>
<p>{{participantName}} handed their place in <strong>{{processName}}</strong> to {{delegateName}}.</p>
<p><a href="{{link}}">See the document</a></p>
<p>Or open this address: {{link}}</p>`,
  },
} as const satisfies Record<MessageName, MessageWords>;

const pt = {
  'signing-invitation': {
    subject: '{{subject}}',
    text: `Olá, {{signerName}},

Você tem um documento para assinar: “{{processName}}”.

{{message}}

Leia e assine aqui:
{{link}}`,
    html: `<p>Olá, {{signerName}},</p>
<p>Você tem um documento para assinar: <strong>{{processName}}</strong>.</p>
<p>{{message}}</p>
<p><a href="{{link}}">Ler e assinar</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  'signing-reminder': {
    subject: 'Lembrete: “{{processName}}” aguarda sua assinatura',
    text: `Olá, {{signerName}},

“{{processName}}” ainda aguarda sua assinatura. Leia e assine aqui:
{{link}}`,
    html: `<p>Olá, {{signerName}},</p>
<p><strong>{{processName}}</strong> ainda aguarda sua assinatura.</p>
<p><a href="{{link}}">Ler e assinar</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  'process-cancelled': {
    subject: 'Documento cancelado: “{{processName}}”',
    text: `Olá, {{signerName}},

O documento “{{processName}}” foi cancelado e não pode mais ser assinado.

{{message}}`,
    html: `<p>Olá, {{signerName}},</p>
<p>O documento <strong>{{processName}}</strong> foi cancelado e não pode mais ser assinado.</p>
<p>{{message}}</p>`,
  },
  'otp-code': {
    subject: 'Seu código de verificação',
    text: 'Seu código de verificação é {{code}}. Ele vale por {{minutes}} minutos. Não o compartilhe com ninguém.',
    html: `<p>Seu código de verificação é <strong>{{code}}</strong>.</p>
<p>Ele vale por {{minutes}} minutos. Não o compartilhe com ninguém.</p>`,
  },
  'veriface-invitation': {
    subject: 'Confirme sua identidade',
    text: `Olá, {{personName}},

Confirme sua identidade com uma foto do seu documento e uma do seu rosto, aqui:
{{link}}`,
    html: `<p>Olá, {{personName}},</p>
<p>Confirme sua identidade com uma foto do seu documento e uma do seu rosto.</p>
<p><a href="{{link}}">Confirmar minha identidade</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  'document-for-printing': {
    subject: 'Para imprimir: “{{processName}}”',
    text: `Olá, {{signerName}}:

Enviamos “{{processName}}” para você imprimir: segue anexo em PDF.

{{message}}`,
    html: `<p>Olá, {{signerName}}:</p>
<p>Enviamos <strong>{{processName}}</strong> para você imprimir: segue anexo em PDF.</p>
<p>{{message}}</p>`,
  },
  'attachments-approved': {
    subject: 'Arquivos aprovados: “{{processName}}”',
    text: `Todos os arquivos de “{{processName}}” foram aprovados.

O certificado está aqui:
{{link}}`,
    html: `<p>Todos os arquivos de <strong>{{processName}}</strong> foram aprovados.</p>
<p><a href="{{link}}">Ver o certificado</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  'process-finished': {
    subject: 'Documento assinado: “{{processName}}”',
    text: `Todos assinaram “{{processName}}”.

Baixe o documento assinado aqui:
{{link}}`,
    html: `<p>Todos assinaram <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Baixar o documento assinado</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  'continue-on-phone': {
    subject: 'Continue “{{processName}}” no seu telefone',
    text: 'Continue “{{processName}}” no seu telefone aqui: {{link}}',
    html: `<p>Continue <strong>{{processName}}</strong> no seu telefone.</p>
<p><a href="{{link}}">Continuar</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  'document-copy': {
    subject: 'Sua cópia de “{{processName}}”',
    text: `Olá, {{signerName}},

Você pediu uma cópia de “{{processName}}”. Leia ou baixe quando quiser, aqui:
{{link}}`,
    html: `<p>Olá, {{signerName}},</p>
<p>Você pediu uma cópia de <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Leia ou baixe</a> quando quiser.</p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  // A prebuilt process's form (POST /document/prebuild), sent to who completes it.
  'prebuilt-invitation': {
    subject: 'Complete «{{processName}}»',
    text: `Olá,

{{organization}} preparou «{{processName}}» e pede que você complete os dados que faltam. Depois, quem deve assiná-lo recebe o convite.

Complete aqui:
{{link}}`,
    html: `<p>Olá,</p>
<p>{{organization}} preparou <strong>{{processName}}</strong> e pede que você complete os dados que faltam. Depois, quem deve assiná-lo recebe o convite.</p>
<p><a href="{{link}}">Completar</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  // The operator console's sign-in (src/console/sign-in.ts), sent to a user of the organization.
  'console-sign-in': {
    subject: 'Entre no console de {{organization}}',
    text: `Olá,

Para entrar no console de {{organization}}, abra este link:
{{link}}

Ou digite este código na página onde você o pediu: {{code}}

O link e o código valem uma única vez e vencem em {{minutes}} minutos. Se não foi você quem pediu, ignore esta mensagem.`,
    html: `<p>Olá,</p>
<p>Para entrar no console de <strong>{{organization}}</strong>, abra este link:</p>
<p><a href="{{link}}">Entrar no console</a></p>
<p>Ou digite este código na página onde você o pediu: <strong>{{code}}</strong></p>
<p>O link e o código valem uma única vez e vencem em {{minutes}} minutos. Se não foi você quem pediu, ignore esta mensagem.</p>`,
  },
  // A reader (`readers`) follows the process: invited to read it, told of every signature, rejection and end.
  'reader-invitation': {
    subject: 'Para sua informação: “{{processName}}”',
    text: `Olá, {{readerName}},

“{{processName}}” foi compartilhado com você para que acompanhe a assinatura. Você pode lê-lo; não precisa assinar nada.

{{message}}

Veja aqui:
{{link}}`,
    html: `<p>Olá, {{readerName}},</p>
<p><strong>{{processName}}</strong> foi compartilhado com você para que acompanhe a assinatura. Você pode lê-lo; não precisa assinar nada.</p>
<p>{{message}}</p>
<p><a href="{{link}}">Ver o documento</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  'reader-signed': {
    subject: '{{participantName}} assinou “{{processName}}”',
    text: `Olá, {{readerName}},

{{participantName}} assinou “{{processName}}”.

Veja aqui:
{{link}}`,
    html: `<p>Olá, {{readerName}},</p>
<p>{{participantName}} assinou <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Ver o documento</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  'reader-approved': {
    subject: '{{participantName}} aprovou “{{processName}}”',
    text: `Olá, {{readerName}},

{{participantName}} aprovou “{{processName}}”.

Veja aqui:
{{link}}`,
    html: `<p>Olá, {{readerName}},</p>
<p>{{participantName}} aprovou <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Ver o documento</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  'reader-rejected': {
    subject: 'Documento recusado: “{{processName}}”',
    text: `Olá, {{readerName}},

{{participantName}} recusou “{{processName}}” e ele não será assinado.

Veja aqui:
{{link}}`,
    html: `<p>Olá, {{readerName}},</p>
<p>{{participantName}} recusou <strong>{{processName}}</strong> e ele não será assinado.</p>
<p><a href="{{link}}">Ver o documento</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  'reader-cancelled': {
    subject: 'Documento cancelado: “{{processName}}”',
    text: `Olá, {{readerName}},

“{{processName}}” foi cancelado e não será assinado.

{{message}}

Veja aqui:
{{link}}`,
    html: `<p>Olá, {{readerName}},</p>
<p><strong>{{processName}}</strong> foi cancelado e não será assinado.</p>
<p>{{message}}</p>
<p><a href="{{link}}">Ver o documento</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  'reader-expired': {
    subject: 'Documento vencido: “{{processName}}”',
    text: `Olá, {{readerName}},

“{{processName}}” venceu antes que todos o assinassem.

Veja aqui:
{{link}}`,
    html: `<p>Olá, {{readerName}},</p>
<p><strong>{{processName}}</strong> venceu antes que todos o assinassem.</p>
<p><a href="{{link}}">Ver o documento</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  'reader-reactivated': {
    subject: 'Documento novamente em assinatura: “{{processName}}”',
    text: `Olá, {{readerName}},

“{{processName}}” está novamente em assinatura: quem ainda não assinou foi convidado de novo.

Veja aqui:
{{link}}`,
    html: `<p>Olá, {{readerName}},</p>
<p><strong>{{processName}}</strong> está novamente em assinatura: quem ainda não assinou foi convidado de novo.</p>
<p><a href="{{link}}">Ver o documento</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
  'reader-delegated': {
    subject: '{{participantName}} delegou a sua assinatura de “{{processName}}”',
    text: `Olá, {{readerName}},

{{participantName}} passou o seu lugar em “{{processName}}” para {{delegateName}}.

Veja aqui:
{{link}}`,
    html: `<p>Olá, {{readerName}},</p>
<p>{{participantName}} passou o seu lugar em <strong>{{processName}}</strong> para {{delegateName}}.</p>
<p><a href="{{link}}">Ver o documento</a></p>
<p>Ou abra este endereço: {{link}}</p>`,
  },
} as const satisfies Record<MessageName, MessageWords>;

const fr = {
  'signing-invitation': {
    subject: '{{subject}}',
    text: `Bonjour {{signerName}},

Vous avez un document à signer : « {{processName}} ».

{{message}}

Lisez-le et signez-le ici :
{{link}}`,
    html: `<p>Bonjour {{signerName}},</p>
<p>Vous avez un document à signer : <strong>{{processName}}</strong>.</p>
<p>{{message}}</p>
<p><a href="{{link}}">Lire et signer</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  'signing-reminder': {
    subject: 'Rappel : « {{processName}} » attend votre signature',
    text: `Bonjour {{signerName}},

« {{processName}} » attend toujours votre signature. Lisez-le et signez-le ici :
{{link}}`,
    html: `<p>Bonjour {{signerName}},</p>
<p><strong>{{processName}}</strong> attend toujours votre signature.</p>
<p><a href="{{link}}">Lire et signer</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  'process-cancelled': {
    subject: 'Document annulé : « {{processName}} »',
    text: `Bonjour {{signerName}},

Le document « {{processName}} » a été annulé et ne peut plus être signé.

{{message}}`,
    html: `<p>Bonjour {{signerName}},</p>
<p>Le document <strong>{{processName}}</strong> a été annulé et ne peut plus être signé.</p>
<p>{{message}}</p>`,
  },
  'otp-code': {
    subject: 'Votre code de vérification',
    text: 'Votre code de vérification est {{code}}. Il est valable {{minutes}} minutes. Ne le communiquez à personne.',
    html: `<p>Votre code de vérification est <strong>{{code}}</strong>.</p>
<p>Il est valable {{minutes}} minutes. Ne le communiquez à personne.</p>`,
  },
  'veriface-invitation': {
    subject: 'Confirmez votre identité',
    text: `Bonjour {{personName}},

Confirmez votre identité avec une photo de votre pièce d’identité et une de votre visage, ici :
{{link}}`,
    html: `<p>Bonjour {{personName}},</p>
<p>Confirmez votre identité avec une photo de votre pièce d’identité et une de votre visage.</p>
<p><a href="{{link}}">Confirmer mon identité</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  'document-for-printing': {
    subject: 'À imprimer : « {{processName}} »',
    text: `Bonjour {{signerName}},

Voici « {{processName}} » à imprimer : il est joint en PDF.

{{message}}`,
    html: `<p>Bonjour {{signerName}},</p>
<p>Voici <strong>{{processName}}</strong> à imprimer : il est joint en PDF.</p>
<p>{{message}}</p>`,
  },
  'attachments-approved': {
    subject: 'Fichiers approuvés : « {{processName}} »',
    text: `Tous les fichiers de « {{processName}} » ont été approuvés.

Le certificat est ici :
{{link}}`,
    html: `<p>Tous les fichiers de <strong>{{processName}}</strong> ont été approuvés.</p>
<p><a href="{{link}}">Voir le certificat</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  'process-finished': {
    subject: 'Document signé : « {{processName}} »',
    text: `Tout le monde a signé « {{processName}} ».

Téléchargez le document signé ici :
{{link}}`,
    html: `<p>Tout le monde a signé <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Télécharger le document signé</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  'continue-on-phone': {
    subject: 'Continuez « {{processName}} » sur votre téléphone',
    text: 'Continuez « {{processName}} » sur votre téléphone ici : {{link}}',
    html: `<p>Continuez <strong>{{processName}}</strong> sur votre téléphone.</p>
<p><a href="{{link}}">Continuer</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  'document-copy': {
    subject: 'Votre copie de « {{processName}} »',
    text: `Bonjour {{signerName}},

Vous avez demandé une copie de « {{processName}} ». Lisez-la ou téléchargez-la quand vous voulez, ici :
{{link}}`,
    html: `<p>Bonjour {{signerName}},</p>
<p>Vous avez demandé une copie de <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Lisez-la ou téléchargez-la</a> quand vous voulez.</p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  // A prebuilt process's form (POST /document/prebuild), sent to who completes it.
  'prebuilt-invitation': {
    subject: 'Complétez « {{processName}} »',
    text: `Bonjour,

{{organization}} a préparé « {{processName}} » et vous demande de compléter les informations manquantes. Ensuite, chaque personne qui doit le signer reçoit son invitation.

Complétez-le ici :
{{link}}`,
    html: `<p>Bonjour,</p>
<p>{{organization}} a préparé <strong>{{processName}}</strong> et vous demande de compléter les informations manquantes. Ensuite, chaque personne qui doit le signer reçoit son invitation.</p>
<p><a href="{{link}}">Compléter</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  // The operator console's sign-in (src/console/sign-in.ts), sent to a user of the organization.
  'console-sign-in': {
    subject: 'Connectez-vous à la console de {{organization}}',
    text: `Bonjour,

Pour vous connecter à la console de {{organization}}, ouvrez ce lien :
{{link}}

Ou saisissez ce code sur la page où vous l'avez demandé : {{code}}

Le lien et le code ne servent qu'une fois et expirent dans {{minutes}} minutes. Si vous ne l'avez pas demandé, ignorez ce message.`,
    html: `<p>Bonjour,</p>
<p>Pour vous connecter à la console de <strong>{{organization}}</strong>, ouvrez ce lien :</p>
<p><a href="{{link}}">Se connecter à la console</a></p>
<p>Ou saisissez ce code sur la page où vous l'avez demandé : <strong>{{code}}</strong></p>
<p>Le lien et le code ne servent qu'une fois et expirent dans {{minutes}} minutes. Si vous ne l'avez pas demandé, ignorez ce message.</p>`,
  },
  // A reader (`readers`) follows the process: invited to read it, told of every signature, rejection and end.
  'reader-invitation': {
    subject: 'Pour information : « {{processName}} »',
    text: `Bonjour {{readerName}},

« {{processName}} » vous a été partagé pour que vous suiviez sa signature. Vous pouvez le lire ; vous n’avez rien à signer.

{{message}}

Consultez-le ici :
{{link}}`,
    html: `<p>Bonjour {{readerName}},</p>
<p><strong>{{processName}}</strong> vous a été partagé pour que vous suiviez sa signature. Vous pouvez le lire ; vous n’avez rien à signer.</p>
<p>{{message}}</p>
<p><a href="{{link}}">Voir le document</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  'reader-signed': {
    subject: '{{participantName}} a signé « {{processName}} »',
    text: `Bonjour {{readerName}},

{{participantName}} a signé « {{processName}} ».

Consultez-le ici :
{{link}}`,
    html: `<p>Bonjour {{readerName}},</p>
<p>{{participantName}} a signé <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Voir le document</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  'reader-approved': {
    subject: '{{participantName}} a approuvé « {{processName}} »',
    text: `Bonjour {{readerName}},

{{participantName}} a approuvé « {{processName}} ».

Consultez-le ici :
{{link}}`,
    html: `<p>Bonjour {{readerName}},</p>
<p>{{participantName}} a approuvé <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Voir le document</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  'reader-rejected': {
    subject: 'Document refusé : « {{processName}} »',
    text: `Bonjour {{readerName}},

{{participantName}} a refusé « {{processName}} » ; il ne sera pas signé.

Consultez-le ici :
{{link}}`,
    html: `<p>Bonjour {{readerName}},</p>
<p>{{participantName}} a refusé <strong>{{processName}}</strong> ; il ne sera pas signé.</p>
<p><a href="{{link}}">Voir le document</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  'reader-cancelled': {
    subject: 'Document annulé : « {{processName}} »',
    text: `Bonjour {{readerName}},

« {{processName}} » a été annulé ; il ne sera pas signé.

{{message}}

Consultez-le ici :
{{link}}`,
    html: `<p>Bonjour {{readerName}},</p>
<p><strong>{{processName}}</strong> a été annulé ; il ne sera pas signé.</p>
<p>{{message}}</p>
<p><a href="{{link}}">Voir le document</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  'reader-expired': {
    subject: 'Document expiré : « {{processName}} »',
    text: `Bonjour {{readerName}},

« {{processName}} » a expiré avant que tout le monde l’ait signé.

Consultez-le ici :
{{link}}`,
    html: `<p>Bonjour {{readerName}},</p>
<p><strong>{{processName}}</strong> a expiré avant que tout le monde l’ait signé.</p>
<p><a href="{{link}}">Voir le document</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  'reader-reactivated': {
    subject: 'Document de nouveau en signature : « {{processName}} »',
    text: `Bonjour {{readerName}},

« {{processName}} » est de nouveau en signature : ceux qui n’ont pas encore signé ont été invités à nouveau.

Consultez-le ici :
{{link}}`,
    html: `<p>Bonjour {{readerName}},</p>
<p><strong>{{processName}}</strong> est de nouveau en signature : ceux qui n’ont pas encore signé ont été invités à nouveau.</p>
<p><a href="{{link}}">Voir le document</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
  'reader-delegated': {
    subject: '{{participantName}} a délégué sa signature de « {{processName}} »',
    text: `Bonjour {{readerName}},

{{participantName}} a cédé sa place dans « {{processName}} » à {{delegateName}}.

Consultez-le ici :
{{link}}`,
    html: `<p>Bonjour {{readerName}},</p>
<p>{{participantName}} a cédé sa place dans <strong>{{processName}}</strong> à {{delegateName}}.</p>
<p><a href="{{link}}">Voir le document</a></p>
<p>Ou ouvrez cette adresse : {{link}}</p>`,
  },
} as const satisfies Record<MessageName, MessageWords>;

export const MESSAGE_WORDS = { es, en, pt, fr } as const satisfies Record<Language, Record<MessageName, MessageWords>>;
