import type { ConsoleAction } from '../console/audit-contract.js';
import type { Language } from '../organizations/languages.js';

/*
 * The console's words for its audit log's entries (one per action of src/console/audit-contract.ts
 * CONSOLE_ACTIONS: `audit<ACTION>`), in their own module so that the console's catalogue
 * (words-console.ts) takes them in one line per language.
 */

type AuditActionWords = { readonly [A in ConsoleAction as `audit${A}`]: string };

const es: AuditActionWords = {
  auditSIGN_IN_REQUESTED: 'Pidió entrar',
  auditSIGN_IN_STARTED: 'Dio su primer factor de entrada',
  auditSIGN_IN: 'Entró',
  auditSIGN_IN_REFUSED: 'Entrada rechazada',
  auditSIGN_OUT: 'Salió',
  auditADMIN_REQUIRED: 'Intentó una acción de administración sin serlo',
  auditTEMPLATE_CREATED: 'Creó una plantilla',
  auditTEMPLATE_UPDATED: 'Cambió una plantilla',
  auditREFERENCE_CREATED: 'Creó un enlace de formulario',
  auditREFERENCE_UPDATED: 'Cambió un enlace de formulario',
  auditDELIVERY_RESENT: 'Reenvió un webhook',
  auditKEY_CREATED: 'Creó una clave de API',
  auditKEY_REVOKED: 'Revocó una clave de API',
  auditSETTINGS_CHANGED: 'Cambió los ajustes',
  auditREVIEW_DECIDED: 'Decidió una revisión de identidad',
  auditPROCESS_CANCELLED: 'Canceló un proceso',
  auditPARTICIPANT_REMINDED: 'Recordó a un participante',
  auditPROCESS_REACTIVATED: 'Reactivó un proceso',
  auditPASSKEY_ADDED: 'Añadió una llave de acceso',
  auditPASSKEY_REMOVED: 'Quitó una llave de acceso',
  auditTOTP_ENROLLED: 'Activó el código de una aplicación',
  auditTOTP_RESET: 'Se restableció el código de una aplicación',
  auditREVIEWER_REQUIRED: 'Intentó ver datos de identidad sin ser revisor',
  auditSENDER_REQUIRED: 'Intentó un cambio siendo solo lector',
  auditPHOTO_VIEWED: 'Vio una foto de identidad',
  auditIDENTITY_VIEWED: 'Vio un número de documento o un teléfono',
};

const en: AuditActionWords = {
  auditSIGN_IN_REQUESTED: 'Asked to sign in',
  auditSIGN_IN_STARTED: 'Gave their first sign-in factor',
  auditSIGN_IN: 'Signed in',
  auditSIGN_IN_REFUSED: 'Sign-in refused',
  auditSIGN_OUT: 'Signed out',
  auditADMIN_REQUIRED: "Tried an admin's action without being one",
  auditTEMPLATE_CREATED: 'Created a template',
  auditTEMPLATE_UPDATED: 'Changed a template',
  auditREFERENCE_CREATED: 'Created a form link',
  auditREFERENCE_UPDATED: 'Changed a form link',
  auditDELIVERY_RESENT: 'Resent a webhook',
  auditKEY_CREATED: 'Created an API key',
  auditKEY_REVOKED: 'Revoked an API key',
  auditSETTINGS_CHANGED: 'Changed the settings',
  auditREVIEW_DECIDED: 'Decided an identity review',
  auditPROCESS_CANCELLED: 'Cancelled a process',
  auditPARTICIPANT_REMINDED: 'Reminded a participant',
  auditPROCESS_REACTIVATED: 'Reactivated a process',
  auditPASSKEY_ADDED: 'Added a passkey',
  auditPASSKEY_REMOVED: 'Removed a passkey',
  auditTOTP_ENROLLED: 'Turned on an authenticator app',
  auditTOTP_RESET: 'Authenticator app reset',
  auditREVIEWER_REQUIRED: 'Tried to see identity data without being a reviewer',
  auditSENDER_REQUIRED: 'Tried a change as a read-only viewer',
  auditPHOTO_VIEWED: 'Viewed an identity photo',
  auditIDENTITY_VIEWED: 'Viewed an ID number or a phone',
};

const pt: AuditActionWords = {
  auditSIGN_IN_REQUESTED: 'Pediu para entrar',
  auditSIGN_IN_STARTED: 'Deu o primeiro fator de entrada',
  auditSIGN_IN: 'Entrou',
  auditSIGN_IN_REFUSED: 'Entrada recusada',
  auditSIGN_OUT: 'Saiu',
  auditADMIN_REQUIRED: 'Tentou uma ação de administrador sem o ser',
  auditTEMPLATE_CREATED: 'Criou um modelo',
  auditTEMPLATE_UPDATED: 'Alterou um modelo',
  auditREFERENCE_CREATED: 'Criou um link de formulário',
  auditREFERENCE_UPDATED: 'Alterou um link de formulário',
  auditDELIVERY_RESENT: 'Reenviou um webhook',
  auditKEY_CREATED: 'Criou uma chave de API',
  auditKEY_REVOKED: 'Revogou uma chave de API',
  auditSETTINGS_CHANGED: 'Alterou as configurações',
  auditREVIEW_DECIDED: 'Decidiu uma revisão de identidade',
  auditPROCESS_CANCELLED: 'Cancelou um processo',
  auditPARTICIPANT_REMINDED: 'Lembrou um participante',
  auditPROCESS_REACTIVATED: 'Reativou um processo',
  auditPASSKEY_ADDED: 'Adicionou uma chave de acesso',
  auditPASSKEY_REMOVED: 'Removeu uma chave de acesso',
  auditTOTP_ENROLLED: 'Ativou um aplicativo autenticador',
  auditTOTP_RESET: 'Aplicativo autenticador redefinido',
  auditREVIEWER_REQUIRED: 'Tentou ver dados de identidade sem ser revisor',
  auditSENDER_REQUIRED: 'Tentou uma alteração sendo só leitor',
  auditPHOTO_VIEWED: 'Viu uma foto de identidade',
  auditIDENTITY_VIEWED: 'Viu um número de documento ou um telefone',
};

const fr: AuditActionWords = {
  auditSIGN_IN_REQUESTED: 'A demandé à se connecter',
  auditSIGN_IN_STARTED: 'A donné son premier facteur de connexion',
  auditSIGN_IN: "S'est connecté",
  auditSIGN_IN_REFUSED: 'Connexion refusée',
  auditSIGN_OUT: "S'est déconnecté",
  auditADMIN_REQUIRED: "A tenté une action d'administrateur sans l'être",
  auditTEMPLATE_CREATED: 'A créé un modèle',
  auditTEMPLATE_UPDATED: 'A modifié un modèle',
  auditREFERENCE_CREATED: 'A créé un lien de formulaire',
  auditREFERENCE_UPDATED: 'A modifié un lien de formulaire',
  auditDELIVERY_RESENT: 'A renvoyé un webhook',
  auditKEY_CREATED: "A créé une clé d'API",
  auditKEY_REVOKED: "A révoqué une clé d'API",
  auditSETTINGS_CHANGED: 'A modifié les réglages',
  auditREVIEW_DECIDED: "A tranché une vérification d'identité",
  auditPROCESS_CANCELLED: 'A annulé un processus',
  auditPARTICIPANT_REMINDED: 'A relancé un participant',
  auditPROCESS_REACTIVATED: 'A réactivé un processus',
  auditPASSKEY_ADDED: "A ajouté une clé d'accès",
  auditPASSKEY_REMOVED: "A retiré une clé d'accès",
  auditTOTP_ENROLLED: "A activé une application d'authentification",
  auditTOTP_RESET: "Application d'authentification réinitialisée",
  auditREVIEWER_REQUIRED: "A tenté de voir des données d'identité sans être vérificateur",
  auditSENDER_REQUIRED: 'A tenté une modification en simple lecteur',
  auditPHOTO_VIEWED: "A vu une photo d'identité",
  auditIDENTITY_VIEWED: "A vu un numéro de pièce d'identité ou un téléphone",
};

export const CONSOLE_AUDIT_WORDS: Readonly<Record<Language, AuditActionWords>> = { es, en, pt, fr };

/** Whether `key` names an audit action the console has words for (a newer service's may not). */
export function hasAuditWords(key: string): key is keyof AuditActionWords {
  return key in es;
}
