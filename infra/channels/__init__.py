"""The delivery channels of notifications: mail (SMTP, or the development mailbox), webhooks (Standard Webhooks
signatures) and Web Push (VAPID, RFC 8291 encryption), and the checks of the addresses players give them. Each
sender raises :class:`DeliveryFailed`, which says whether trying again can help."""

from infra.channels.addresses import check_email, check_resolved, check_url
from infra.channels.devmail import DevMail, DevMailbox
from infra.channels.errors import DeliveryFailed, InvalidEmail, UnsafeAddress
from infra.channels.mail import Mail, MailSender, SmtpSender, build_message, mail_sender
from infra.channels.push import PushSender, PushSubscription, VapidKeys, check_subscription, vapid_keys
from infra.channels.webhooks import SHAPES, WebhookMessage, WebhookSender, body_for, new_secret

__all__ = [
    "SHAPES",
    "DeliveryFailed",
    "DevMail",
    "DevMailbox",
    "InvalidEmail",
    "Mail",
    "MailSender",
    "PushSender",
    "PushSubscription",
    "SmtpSender",
    "UnsafeAddress",
    "VapidKeys",
    "WebhookMessage",
    "WebhookSender",
    "body_for",
    "build_message",
    "check_email",
    "check_resolved",
    "check_subscription",
    "check_url",
    "mail_sender",
    "new_secret",
    "vapid_keys",
]
