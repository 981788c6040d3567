"""Create a person's admin account in a role, from arguments: the production way to add the first users.

`ensure_admin` is for development only; in production an operator runs, for example,
    PASSWORD=... python manage.py add_user ana --email ana@example.com --role editor --password-env PASSWORD
The password comes from an environment variable (never a command-line argument, which `ps` and shell
history show) or, without one, is asked for at the terminal. An existing user is put in the role.
"""

import getpass
import os

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from editorial.roles import EDITORS, TRANSLATORS

ROLES = {"editor": EDITORS, "translator": TRANSLATORS, "admin": None}


class Command(BaseCommand):
    help = "Create (or update) an admin user in a role: editor, translator or admin (superuser)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument("--role", choices=sorted(ROLES), required=True)
        parser.add_argument("--password-env", metavar="VAR", help="read the password from this environment variable")

    def handle(self, *args, username, email, role, password_env, **options):
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        created = user is None
        password = self._password(password_env, needed=created)
        if created:
            user = User(username=username, email=email)
        elif email:
            user.email = email
        if password:
            try:
                validate_password(password, user)
            except ValidationError as error:
                raise CommandError("The password is refused: " + " ".join(error.messages)) from None
            user.set_password(password)
        user.is_staff = True
        user.is_superuser = user.is_superuser or role == "admin"
        user.save()
        if ROLES[role]:
            try:
                user.groups.add(Group.objects.get(name=ROLES[role]))
            except Group.DoesNotExist:
                raise CommandError(f"The group {ROLES[role]!r} does not exist: run migrate first.") from None
        self.stdout.write(f"{username}: {role} ({'created' if created else 'updated'}); "
                          f"groups: {', '.join(user.groups.values_list('name', flat=True)) or '-'}")

    def _password(self, variable, needed):
        if variable:
            value = os.environ.get(variable)
            if not value:
                raise CommandError(f"The environment variable {variable} is empty or not set.")
            return value
        if not needed:
            return None
        if not os.isatty(0):
            raise CommandError("No password: give --password-env VAR, or run this at a terminal to type one.")
        first, second = getpass.getpass("Password: "), getpass.getpass("Password (again): ")
        if first != second:
            raise CommandError("The passwords differ.")
        return first
